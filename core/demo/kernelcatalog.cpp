#include "core/demo/kernelcatalog.h"

#include <array>
#include <cstddef>

namespace ps::core::demo {

namespace {

// Order follows enum Kernel.
const std::array<KernelSpec, kKernelCount> kSpecs = {{
    {"ampere_bf16_s16816gemm_bf16_128x256_ldg8_f2f_stages_64x3_tn",
     "ampere_bf16_s16816gemm_bf16_128x256_ldg8_f2f_stages_64x3_tn", true, 232, 16, 32, 1, 256, 1, 1, 0, 73728, 520000},
    {"ampere_bf16_s16816gemm_bf16_256x128_ldg8_f2f_stages_64x3_tn",
     "ampere_bf16_s16816gemm_bf16_256x128_ldg8_f2f_stages_64x3_tn", true, 232, 44, 16, 1, 256, 1, 1, 0, 73728, 1350000},
    {"ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_stages_64x4_nn",
     "ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_stages_64x4_nn", true, 202, 32, 32, 1, 128, 1, 1, 0, 81920, 610000},
    {"ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_stages_64x4_nt",
     "ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_stages_64x4_nt", true, 202, 32, 32, 1, 128, 1, 1, 0, 81920, 640000},
    {"flash_fwd_kernel",
     "void flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, cutlass::bfloat16_t, "
     "Flash_kernel_traits<128, 128, 64, 4, cutlass::bfloat16_t>>, false, true, false, false, true, true, false, "
     "false>(Flash_fwd_params)",
     false, 255, 32, 8, 32, 128, 1, 1, 0, 49152, 410000},
    {"flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel",
     "void flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<Flash_bwd_kernel_traits<128, 64, 128, 8, 2, 4, 2, false, "
     "false, cutlass::bfloat16_t, Flash_kernel_traits<128, 64, 128, 8, cutlass::bfloat16_t>>, false, true, false, "
     "false, true, true, false>(Flash_bwd_params)",
     false, 255, 64, 8, 32, 256, 1, 1, 0, 147456, 1120000},
    {"flash_bwd_dot_do_o_kernel",
     "void flash_bwd_dot_do_o_kernel<true, Flash_bwd_kernel_traits<128, 64, 128, 8, 2, 4, 2, false, false, "
     "cutlass::bfloat16_t, Flash_kernel_traits<128, 64, 128, 8, cutlass::bfloat16_t>>>(Flash_bwd_params)",
     false, 40, 64, 8, 32, 256, 1, 1, 0, 0, 38000},
    {"flash_bwd_convert_dq_kernel",
     "void flash_bwd_convert_dq_kernel<Flash_bwd_kernel_traits<128, 64, 128, 8, 2, 4, 2, false, false, "
     "cutlass::bfloat16_t, Flash_kernel_traits<128, 64, 128, 8, cutlass::bfloat16_t>>>(Flash_bwd_params, int)",
     false, 56, 64, 8, 32, 256, 1, 1, 0, 16384, 31000},
    {"vectorized_layer_norm_kernel",
     "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::BFloat16, float>(int, float, "
     "c10::BFloat16 const*, c10::BFloat16 const*, c10::BFloat16 const*, float*, float*, c10::BFloat16*)",
     false, 30, 8192, 1, 1, 128, 1, 1, 0, 0, 36000},
    {"layer_norm_grad_input_kernel_vectorized",
     "void at::native::(anonymous namespace)::layer_norm_grad_input_kernel_vectorized<c10::BFloat16, "
     "float>(c10::BFloat16 const*, c10::BFloat16 const*, float const*, float const*, c10::BFloat16 const*, "
     "c10::BFloat16*, int)",
     false, 40, 8192, 1, 1, 128, 1, 1, 0, 0, 52000},
    {"vectorized_elementwise_kernel",
     "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<c10::BFloat16>, "
     "at::detail::Array<char*, 3>>(int, at::native::CUDAFunctor_add<c10::BFloat16>, at::detail::Array<char*, 3>)",
     false, 24, 16384, 1, 1, 128, 1, 1, 0, 0, 42000},
    {"vectorized_elementwise_kernel",
     "void at::native::vectorized_elementwise_kernel<4, at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, "
     "at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#4}::operator()() "
     "const::{lambda(c10::BFloat16)#1}, at::detail::Array<char*, 2>>(int, "
     "at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() "
     "const::{lambda()#4}::operator()() const::{lambda(c10::BFloat16)#1}, at::detail::Array<char*, 2>)",
     false, 28, 65536, 1, 1, 128, 1, 1, 0, 0, 118000},
    {"vectorized_elementwise_kernel",
     "void at::native::vectorized_elementwise_kernel<4, "
     "at::native::GeluBackwardCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::"
     "operator()() const::{lambda()#4}::operator()() const::{lambda(c10::BFloat16, c10::BFloat16)#1}, "
     "at::detail::Array<char*, 3>>(int, at::native::GeluBackwardCUDAKernelImpl(at::TensorIteratorBase&, "
     "at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#4}::operator()() "
     "const::{lambda(c10::BFloat16, c10::BFloat16)#1}, at::detail::Array<char*, 3>)",
     false, 32, 65536, 1, 1, 128, 1, 1, 0, 0, 164000},
    {"vectorized_elementwise_kernel",
     "void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor<float, float, float, "
     "at::native::binary_internal::MulFunctor<float>>, at::detail::Array<char*, 3>>(int, "
     "at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float>>, "
     "at::detail::Array<char*, 3>)",
     false, 24, 512, 1, 1, 128, 1, 1, 0, 0, 6500},
    {"cunn_SoftMaxForward",
     "void (anonymous namespace)::cunn_SoftMaxForward<4, c10::BFloat16, float, float, "
     "(anonymous namespace)::LogSoftMaxForwardEpilogue>(float*, c10::BFloat16 const*, int)",
     false, 38, 8192, 1, 1, 1024, 1, 1, 0, 0, 88000},
    {"cunn_SoftMaxBackward",
     "void (anonymous namespace)::cunn_SoftMaxBackward<4, c10::BFloat16, float, float, "
     "(anonymous namespace)::LogSoftMaxBackwardEpilogue>(c10::BFloat16*, float const*, float const*, int)",
     false, 36, 8192, 1, 1, 1024, 1, 1, 0, 0, 97000},
    {"reduce_kernel",
     "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::func_wrapper_t<float, "
     "at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, "
     "unsigned int, float, 4>>(at::native::ReduceOp<float, at::native::func_wrapper_t<float, "
     "at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, "
     "unsigned int, float, 4>)",
     false, 32, 1, 64, 1, 32, 16, 1, 0, 16, 14000},
    {"vectorized_elementwise_kernel",
     "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, at::detail::Array<char*, "
     "1>>(int, at::native::FillFunctor<float>, at::detail::Array<char*, 1>)",
     false, 16, 2048, 1, 1, 128, 1, 1, 0, 0, 9000},
    {"multi_tensor_apply_kernel",
     "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous "
     "namespace)::FusedOptimizerTensorListMetadata<4>, at::native::(anonymous namespace)::FusedAdamMathFunctor<float, "
     "4, (at::native::ADAM_MODE)1, false>, double*, double, double, double, double, double, bool, float*, "
     "float*>(at::native::(anonymous namespace)::FusedOptimizerTensorListMetadata<4>, at::native::(anonymous "
     "namespace)::FusedAdamMathFunctor<float, 4, (at::native::ADAM_MODE)1, false>, double*, double, double, "
     "double, double, double, bool, float*, float*)",
     false, 96, 320, 1, 1, 512, 1, 1, 0, 0, 2900000},
    {"ncclDevKernel_AllGather_RING_LL", "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)", false, 96,
     2, 1, 1, 512, 1, 1, 0, 0, 1900000},
    {"ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL",
     "ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)", false, 96, 2, 1, 1, 512, 1, 1, 0,
     0, 2300000},
    {"ncclDevKernel_AllReduce_Sum_f32_RING_LL",
     "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)", false, 96, 2, 1, 1, 512, 1, 1, 0, 0,
     48000},
}};

} // namespace

const KernelSpec &kernelSpec(Kernel k)
{
    return kSpecs[static_cast<size_t>(k)];
}

} // namespace ps::core::demo
