#include "core/common/jsonwriter.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

class TestJsonWriter : public QObject
{
    Q_OBJECT
private slots:
    // What we write, Qt's independent parser reads back with the same values.
    void roundTripThroughQtParser()
    {
        ps::core::JsonWriter w;
        w.beginObject();
        w.key("name").value("quote \" backslash \\ newline \n ctrl \x01 utf8 é");
        w.key("n").value(int64_t(-5));
        w.key("big").value(int64_t(1687813257637297504));
        w.key("x").value(0.1);
        w.key("t").value(true);
        w.key("none").null();
        w.key("list").beginArray().value(1).value("a").beginObject().endObject().endArray();
        w.key("empty").beginArray().endArray();
        w.endObject();
        QJsonParseError err;
        auto doc = QJsonDocument::fromJson(QByteArray::fromStdString(w.str()), &err);
        QCOMPARE(err.error, QJsonParseError::NoError);
        auto o = doc.object();
        QCOMPARE(o["name"].toString(), QString::fromUtf8("quote \" backslash \\ newline \n ctrl \x01 utf8 é"));
        QCOMPARE(o["n"].toInt(), -5);
        QCOMPARE(o["x"].toDouble(), 0.1);
        QCOMPARE(o["t"].toBool(), true);
        QVERIFY(o["none"].isNull());
        QCOMPARE(o["list"].toArray().size(), 3);
        QCOMPARE(o["empty"].toArray().size(), 0);
        // Large integers are written exactly (Qt's double would round them, so compare text).
        QVERIFY(w.str().find("1687813257637297504") != std::string::npos);
    }
    void compactHasNoNewlines()
    {
        ps::core::JsonWriter w(0);
        w.beginObject().key("a").beginArray().value(1).value(2).endArray().endObject();
        QCOMPARE(QString::fromStdString(w.str()), QString("{\"a\":[1,2]}"));
    }
};

QTEST_GUILESS_MAIN(TestJsonWriter)
#include "tst_jsonwriter.moc"
