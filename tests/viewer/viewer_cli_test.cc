// The afviewer binary: --screenshot renders the 1600×1000 window after the pipeline finishes,
// with --select/--tab/--bind applied; exit codes for bad input and bad options; --version.
#include <gtest/gtest.h>

#include <QImage>
#include <QProcess>
#include <QProcessEnvironment>
#include <QSet>

#include "viewer_test_support.h"

namespace af::viewer::test {
namespace {

struct Result {
  int code = -1;
  QString out;
  QString err;
};

Result Afviewer(const QStringList& args) {
  QProcess p;
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert("QT_QPA_PLATFORM", "offscreen");
  env.insert("XDG_CONFIG_HOME", TempPath("config"));
  p.setProcessEnvironment(env);
  p.start(QStringLiteral(AF_AFVIEWER_PATH), args);
  Result r;
  if (!p.waitForFinished(180000)) {
    p.kill();
    return r;
  }
  r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
  r.out = QString::fromUtf8(p.readAllStandardOutput());
  r.err = QString::fromUtf8(p.readAllStandardError());
  return r;
}

// Distinct colours in a coarse sample of the picture: a blank or one-colour image has 1.
int Colours(const QImage& image) {
  QSet<QRgb> seen;
  for (int y = 0; y < image.height(); y += 7) {
    for (int x = 0; x < image.width(); x += 7)
      seen.insert(image.pixel(x, y));
  }
  return static_cast<int>(seen.size());
}

TEST(AfviewerCli, ScreenshotOfTheSample) {
  const QString png = TempPath("sample.png");
  const Result r = Afviewer({"--screenshot", png, "--bind", "s0=37,s1=1031", "--select",
                             "add_bcast_relu", "--tab", "axes", SamplePath()});
  ASSERT_EQ(r.code, 0) << r.err.toStdString();
  const QImage image(png);
  ASSERT_FALSE(image.isNull());
  EXPECT_EQ(image.size(), QSize(1600, 1000));
  EXPECT_GT(Colours(image), 50);
}

TEST(AfviewerCli, ScreenshotOfEachTab) {
  for (const QString tab : {"templates", "cost", "source", "fusion"}) {
    const QString png = TempPath(tab + ".png");
    const Result r = Afviewer({"--screenshot", png, "--bind", "s0=37,s1=1031", "--tab", tab,
                               "--graph", "impl", "--case", "1", "--node", "add", SamplePath()});
    ASSERT_EQ(r.code, 0) << tab.toStdString() << ": " << r.err.toStdString();
    const QImage image(png);
    EXPECT_EQ(image.size(), QSize(1600, 1000)) << tab.toStdString();
    EXPECT_GT(Colours(image), 50) << tab.toStdString();
  }
}

TEST(AfviewerCli, BadInputStillPicturesTheErrorAndExits2) {
  const QString png = TempPath("bad.png");
  const Result r = Afviewer({"--screenshot", png, FixturePath("not_a_graph.txt")});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(r.err.contains("not_a_graph.txt")) << r.err.toStdString();
  EXPECT_EQ(QImage(png).size(), QSize(1600, 1000));
}

TEST(AfviewerCli, OptionsThatNameNothing) {
  const QString png = TempPath("x.png");
  Result r = Afviewer({"--screenshot", png, "--select", "no_such_kernel", SamplePath()});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(r.err.contains("no_such_kernel"));
  r = Afviewer({"--screenshot", png, "--tab", "nope", SamplePath()});
  EXPECT_EQ(r.code, 2);
  r = Afviewer({"--bind", "s0", SamplePath(), "--screenshot", png});
  EXPECT_EQ(r.code, 2);
  r = Afviewer({"--version"});
  EXPECT_EQ(r.code, 0);
  EXPECT_TRUE(r.out.startsWith("afviewer ")) << r.out.toStdString();
}

}  // namespace
}  // namespace af::viewer::test
