#pragma once
// A growable array of trivially copyable values over malloc/realloc. Large arrays grow by
// realloc, which glibc does with mremap (no copy, no second copy resident during growth), so a
// decoder's arenas stay near their final size in RAM while they grow. Internal to the pickle
// decoder.

#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>

namespace ps::core::trace::formats {

template <typename T> class PodArray
{
    static_assert(std::is_trivially_copyable_v<T>);

public:
    PodArray() = default;
    PodArray(const PodArray &) = delete;
    PodArray &operator=(const PodArray &) = delete;
    PodArray(PodArray &&o) noexcept : m_data(o.m_data), m_size(o.m_size), m_cap(o.m_cap)
    {
        o.m_data = nullptr;
        o.m_size = o.m_cap = 0;
    }
    PodArray &operator=(PodArray &&o) noexcept
    {
        if (this != &o) {
            std::free(m_data);
            m_data = o.m_data;
            m_size = o.m_size;
            m_cap = o.m_cap;
            o.m_data = nullptr;
            o.m_size = o.m_cap = 0;
        }
        return *this;
    }
    ~PodArray() { std::free(m_data); }

    size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    T *data() { return m_data; }
    const T *data() const { return m_data; }
    T &operator[](size_t i) { return m_data[i]; }
    const T &operator[](size_t i) const { return m_data[i]; }
    T &back() { return m_data[m_size - 1]; }

    void push_back(const T &v)
    {
        if (m_size == m_cap)
            grow(m_size + 1);
        m_data[m_size++] = v;
    }
    // Appends `n` uninitialized elements and returns the first.
    T *extend(size_t n)
    {
        if (m_cap - m_size < n)
            grow(m_size + n);
        T *p = m_data + m_size;
        m_size += n;
        return p;
    }
    void append(const T *src, size_t n)
    {
        if (n)
            std::memcpy(extend(n), src, n * sizeof(T));
    }
    // Grows to `n` elements, the new ones zero.
    void resizeZero(size_t n)
    {
        if (n <= m_size)
            return;
        const size_t old = m_size;
        extend(n - old);
        std::memset(static_cast<void *>(m_data + old), 0, (n - old) * sizeof(T));
    }
    void shrink(size_t n)
    {
        if (n < m_size)
            m_size = n;
    }
    // Gives the unused capacity back.
    void fit()
    {
        if (m_cap > m_size && m_size) {
            void *p = std::realloc(m_data, m_size * sizeof(T));
            if (p) {
                m_data = static_cast<T *>(p);
                m_cap = m_size;
            }
        }
    }
    void release()
    {
        std::free(m_data);
        m_data = nullptr;
        m_size = m_cap = 0;
    }

private:
    void grow(size_t need)
    {
        size_t cap = m_cap < 16 ? 16 : m_cap + m_cap / 2;
        if (cap < need)
            cap = need;
        if (cap > size_t(-1) / sizeof(T))
            throw std::bad_alloc();
        void *p = std::realloc(m_data, cap * sizeof(T));
        if (!p)
            throw std::bad_alloc();
        m_data = static_cast<T *>(p);
        m_cap = cap;
    }

    T *m_data = nullptr;
    size_t m_size = 0;
    size_t m_cap = 0;
};

} // namespace ps::core::trace::formats
