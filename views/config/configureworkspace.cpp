#include "views/config/configureworkspace.h"

#include "views/common/emptystate.h"

#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace ps::views {

ConfigureWorkspace::ConfigureWorkspace(QWidget *parent) : Workspace(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_stack = new QStackedWidget(this);
    layout->addWidget(m_stack);

    m_empty = new EmptyState(
        "Configure a profiled run",
        "Open the primary config of an RLinf or verl checkout (for example "
        "<code>examples/embodiment/config/*.yaml</code> or <code>verl/trainer/config/ppo_trainer.yaml</code>) "
        "to see its profiling settings. You can also drop a YAML file on the window.",
        m_stack);
    m_empty->addAction("open-config", "Open Config…");
    connect(m_empty, &EmptyState::triggered, this, [this](const QString &id) {
        if (id == "open-config") {
            const QString f = QFileDialog::getOpenFileName(this, "Open Config", QString(),
                                                           "Hydra configs (*.yaml *.yml);;All files (*)");
            if (!f.isEmpty())
                openPaths({f});
        }
    });
    m_stack->addWidget(m_empty);

    auto *page = new QWidget(m_stack);
    auto *pageLayout = new QVBoxLayout(page);
    m_header = new QLabel(page);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    pageLayout->addWidget(m_header);
    m_source = new QPlainTextEdit(page);
    m_source->setReadOnly(true);
    m_source->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_source->setLineWrapMode(QPlainTextEdit::NoWrap);
    pageLayout->addWidget(m_source);
    m_stack->addWidget(page);
}

bool ConfigureWorkspace::accepts(const QString &path) const
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    return QFileInfo(path).isFile() && (suffix == "yaml" || suffix == "yml");
}

void ConfigureWorkspace::openPaths(const QStringList &paths)
{
    if (!paths.isEmpty())
        openFile(paths.first()); // one primary config at a time
}

void ConfigureWorkspace::openFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        emit statusMessage(QString("Cannot open %1: %2").arg(path, f.errorString()), 10000);
        return; // the session stays as it was
    }
    m_path = QFileInfo(path).absoluteFilePath();
    m_source->setPlainText(QString::fromUtf8(f.readAll()));
    m_header->setText(QString("<b>%1</b> &nbsp; <span style='color:gray'>%2</span>")
                          .arg(QFileInfo(path).fileName().toHtmlEscaped(), m_path.toHtmlEscaped()));
    m_stack->setCurrentIndex(1);
    emit openedPath(m_path);
    emit statusMessage("Opened config " + m_path, 5000);
}

} // namespace ps::views
