// The Stages tab (viewer/stage_stepper.h): stepping through the stages of a kernel in AutoFuse's
// DFX dump fixture and in the tree a compile with --codegen_compile_debug writes, with the Next /
// Prev buttons (clicked) and the slider.
#include <QPushButton>
#include <QSlider>
#include <QTabWidget>
#include <QTest>

#include "kernel_inspector.h"
#include "selection_model.h"
#include "stage_stepper.h"
#include "viewer_test_support.h"

namespace af::viewer::test {
namespace {

TEST(StageStepper, StepsThroughTheFixtureDump) {
  StageStepper s;
  const QString tree = SourcePath("tests/fixtures/dfx");
  ASSERT_TRUE(s.setDump(tree, "LoadAbsStore")) << s.summary().toStdString();
  ASSERT_EQ(s.stageCount(), 4);
  EXPECT_EQ(s.currentStage(), 0);
  EXPECT_EQ(s.stageName(), "AfterDeserialize");
  EXPECT_TRUE(s.summary().startsWith("Stage 1 of 4: AfterDeserialize"))
      << s.summary().toStdString();
  EXPECT_TRUE(s.stageText().contains("Graph: LoadAbsStore"));
  EXPECT_FALSE(s.prevButton()->isEnabled());
  QTest::mouseClick(s.nextButton(), Qt::LeftButton);
  EXPECT_EQ(s.currentStage(), 1);
  EXPECT_EQ(s.stageName(), "AfterPreProcess");
  EXPECT_EQ(s.slider()->value(), 1);
  s.slider()->setValue(3);
  EXPECT_EQ(s.currentStage(), 3);
  EXPECT_TRUE(s.stageName().endsWith("AfterDoTiling")) << s.stageName().toStdString();
  // AutoFuse names the impl graph apart; it is a step of the kernel all the same.
  EXPECT_TRUE(s.summary().contains("(graph LoadAbsStore_0_general_0_nil_0_nil)"))
      << s.summary().toStdString();
  EXPECT_TRUE(s.summary().contains("impl") || s.summary().contains("6 axes"))
      << s.summary().toStdString();
  EXPECT_FALSE(s.nextButton()->isEnabled());
  QTest::mouseClick(s.prevButton(), Qt::LeftButton);
  EXPECT_EQ(s.currentStage(), 2);
  EXPECT_EQ(s.stageName(), "BeforeAutoSchedule");
  // A graph the tree does not hold, and a folder that is no dump, say so.
  EXPECT_FALSE(s.setDump(tree, "NoSuchGraph"));
  EXPECT_EQ(s.stageCount(), 0);
  EXPECT_TRUE(s.summary().contains("NoSuchGraph"));
  EXPECT_FALSE(s.setDump(SourcePath("docs"), "LoadAbsStore"));
  EXPECT_TRUE(s.summary().startsWith("Cannot read the stage dump"));
}

TEST_F(WindowTest, StagesTabStepsThroughACompileWithTheDump) {
  RunRequest r = Bound(37, 1031);
  r.flags["codegen_compile_debug"] = "true";
  r.flags["debug_dir"] = TempPath("dbg").toStdString();
  ASSERT_TRUE(OpenAndWait(w(), SamplePath(), r));
  ASSERT_TRUE(w()->inspector()->setCurrentTab("stages"));
  StageStepper* s = w()->inspector()->stages();
  ASSERT_GT(s->stageCount(), 5) << s->summary().toStdString();
  EXPECT_EQ(s->stageName(), "AutoFuseBeforeOptimize");
  EXPECT_TRUE(s->stageText().contains("VIEW 2: Graph Structure"));
  const QString first = s->stageText();
  QTest::mouseClick(s->nextButton(), Qt::LeftButton);
  EXPECT_EQ(s->currentStage(), 1);
  s->slider()->setValue(s->stageCount() - 1);
  EXPECT_TRUE(s->stageName().endsWith("_AfterDoTiling")) << s->stageName().toStdString();
  EXPECT_NE(s->stageText(), first);
}

TEST_F(WindowTest, StagesTabExplainsARunWithoutDump) {
  ASSERT_TRUE(OpenAndWait(w(), SamplePath(), Bound(37, 1031)));
  StageStepper* s = w()->inspector()->stages();
  EXPECT_EQ(s->stageCount(), 0);
  EXPECT_TRUE(s->summary().contains("codegen_compile_debug")) << s->summary().toStdString();
}

}  // namespace
}  // namespace af::viewer::test
