// The layered layout engine (layered_layout.h) and the engine choice: every node placed inside
// the bounds, ranks top to bottom along the edges, no two nodes overlapping, cluster frames
// around their members and clear of other nodes, and linear enough for 10,000-node graphs.
#include <gtest/gtest.h>

#include <QElapsedTimer>
#include <cstdio>
#include <random>

#include "expand_in_place.h"
#include "graph_layout.h"
#include "layered_layout.h"

namespace af::viewer::test {
namespace {

GraphSpec::Node Box(int i, double w = 80, double h = 30) {
  GraphSpec::Node n;
  n.name = QStringLiteral("n%1").arg(i);
  n.size = QSizeF(w, h);
  return n;
}

// Like a model: a spine of ops with weights feeding it and skip connections over a few ops.
GraphSpec ModelLike(int ops, unsigned seed) {
  std::mt19937 rng(seed);
  GraphSpec spec;
  std::vector<int> spine;  // spec index of each op
  for (int i = 0; i < ops; ++i) {
    if (rng() % 3 == 0) {  // a weight, before its op in spec order
      spec.nodes.push_back(Box(static_cast<int>(spec.nodes.size()), 70, 24));
      spec.edges.push_back(
          {static_cast<int>(spec.nodes.size()) - 1, static_cast<int>(spec.nodes.size()), {}});
    }
    const int id = static_cast<int>(spec.nodes.size());
    spec.nodes.push_back(Box(id, 60 + static_cast<double>(rng() % 80)));
    if (i > 0) spec.edges.push_back({spine.back(), id, {}});
    if (i > 4 && rng() % 4 == 0)
      spec.edges.push_back({spine[spine.size() - 2 - rng() % 4], id, {}});
    spine.push_back(id);
  }
  return spec;
}

void ExpectSane(const GraphSpec& spec, const GraphLayout& l) {
  ASSERT_TRUE(l.ok()) << l.error.toStdString();
  ASSERT_EQ(l.nodes.size(), spec.nodes.size());
  ASSERT_EQ(l.edges.size(), spec.edges.size());
  for (std::size_t i = 0; i < spec.nodes.size(); ++i) {
    EXPECT_TRUE(l.bounds.adjusted(-1, -1, 1, 1).contains(l.nodes[i])) << i;
    EXPECT_DOUBLE_EQ(l.nodes[i].width(), spec.nodes[i].size.width());
  }
  for (std::size_t i = 0; i < spec.nodes.size(); ++i)
    for (std::size_t j = i + 1; j < spec.nodes.size() && spec.nodes.size() <= 600; ++j)
      EXPECT_FALSE(l.nodes[i].adjusted(1, 1, -1, -1).intersects(l.nodes[j])) << i << " " << j;
  for (std::size_t i = 0; i < spec.edges.size(); ++i) {
    const auto& e = spec.edges[i];
    const auto& le = l.edges[i];
    ASSERT_GE(le.spline.size(), 4u) << i;
    EXPECT_EQ((le.spline.size() - 1) % 3, 0u);
    EXPECT_GT(l.nodes[static_cast<std::size_t>(e.to)].top(),
              l.nodes[static_cast<std::size_t>(e.from)].bottom() - 0.5)
        << "edge " << i << " goes up";
    EXPECT_NEAR(le.arrow_tip.y(), l.nodes[static_cast<std::size_t>(e.to)].top(), 0.5);
  }
}

TEST(LayeredLayoutTest, ChainDiamondAndModelShapes) {
  GraphSpec chain;
  for (int i = 0; i < 5; ++i) {
    chain.nodes.push_back(Box(i));
    if (i > 0) chain.edges.push_back({i - 1, i, {}});
  }
  const GraphLayout lc = LayeredLayout(chain);
  ExpectSane(chain, lc);
  EXPECT_EQ(lc.engine, QStringLiteral("layered"));
  for (int i = 1; i < 5; ++i)  // a chain is a straight column
    EXPECT_NEAR(lc.nodes[static_cast<std::size_t>(i)].center().x(), lc.nodes[0].center().x(), 0.5);

  GraphSpec diamond;
  for (int i = 0; i < 4; ++i)
    diamond.nodes.push_back(Box(i));
  diamond.edges = {{0, 1, {}}, {0, 2, {}}, {1, 3, {}}, {2, 3, {}}};
  const GraphLayout ld = LayeredLayout(diamond);
  ExpectSane(diamond, ld);
  EXPECT_NEAR(ld.nodes[1].center().y(), ld.nodes[2].center().y(), 0.5);

  const GraphSpec model = ModelLike(300, 7);
  ExpectSane(model, LayeredLayout(model));
}

TEST(LayeredLayoutTest, SourcesSitNextToTheirConsumer) {
  GraphSpec spec;
  for (int i = 0; i < 10; ++i) {
    spec.nodes.push_back(Box(i));
    if (i > 0) spec.edges.push_back({i - 1, i, {}});
  }
  spec.nodes.push_back(Box(10, 50, 20));  // a weight of op 8
  spec.edges.push_back({10, 8, {}});
  const GraphLayout l = LayeredLayout(spec);
  ExpectSane(spec, l);
  EXPECT_GT(l.nodes[10].top(), l.nodes[6].bottom());  // not at the top of the graph
}

TEST(LayeredLayoutTest, ClusterFramesHoldTheirMembersOnly) {
  GraphSpec spec;
  for (int i = 0; i < 8; ++i)
    spec.nodes.push_back(Box(i));
  spec.clusters.resize(2);
  for (int i : {1, 2, 3})
    spec.nodes[static_cast<std::size_t>(i)].cluster = 0;
  for (int i : {5, 6})
    spec.nodes[static_cast<std::size_t>(i)].cluster = 1;
  spec.edges = {{0, 1, {}}, {1, 2, {}}, {1, 3, {}}, {2, 4, {}}, {3, 4, {}},
                {0, 5, {}}, {5, 6, {}}, {6, 7, {}}, {4, 7, {}}};
  const GraphLayout l = LayeredLayout(spec);
  ExpectSane(spec, l);
  ASSERT_EQ(l.clusters.size(), 2u);
  for (std::size_t i = 0; i < spec.nodes.size(); ++i) {
    const int c = spec.nodes[i].cluster;
    for (int k = 0; k < 2; ++k) {
      if (c == k) {
        EXPECT_TRUE(l.clusters[static_cast<std::size_t>(k)].contains(l.nodes[i])) << i;
      } else {
        EXPECT_FALSE(l.clusters[static_cast<std::size_t>(k)].intersects(l.nodes[i])) << i << k;
      }
    }
  }
}

TEST(LayeredLayoutTest, CyclesAndBadEdges) {
  GraphSpec spec;
  for (int i = 0; i < 3; ++i)
    spec.nodes.push_back(Box(i));
  spec.edges = {{0, 1, {}}, {1, 2, {}}, {2, 0, {}}, {1, 1, {}}};
  const GraphLayout l = LayeredLayout(spec);
  ASSERT_TRUE(l.ok());
  for (const auto& r : l.nodes)
    EXPECT_TRUE(l.bounds.adjusted(-1, -1, 1, 1).contains(r));
  spec.edges.push_back({0, 7, {}});
  EXPECT_FALSE(LayeredLayout(spec).ok());
  EXPECT_TRUE(LayeredLayout(GraphSpec()).ok());
}

TEST(LayeredLayoutTest, EngineChoiceFollowsTheSize) {
  const GraphSpec small = ModelLike(50, 1);
  const GraphSpec large = ModelLike(kDotNodeLimit + 10, 2);
  EXPECT_EQ(ChooseEngine(small, LayoutEngine::kAuto), LayoutEngine::kDot);
  EXPECT_EQ(ChooseEngine(large, LayoutEngine::kAuto), LayoutEngine::kLayered);
  EXPECT_EQ(ChooseEngine(large, LayoutEngine::kDot), LayoutEngine::kDot);
  EXPECT_EQ(LayoutWith(small, LayoutEngine::kAuto).engine, QStringLiteral("dot"));
  EXPECT_EQ(LayoutWith(small, LayoutEngine::kLayered).engine, QStringLiteral("layered"));
}

// 10,000 model ops: the layout is sane; the time is printed (measured, never asserted).
TEST(LayeredLayoutTest, TenThousandOps) {
  const GraphSpec spec = ModelLike(10000, 3);
  QElapsedTimer t;
  t.start();
  const GraphLayout l = LayeredLayout(spec);
  std::printf("layered layout of %zu nodes, %zu edges: %.1f ms\n", spec.nodes.size(),
              spec.edges.size(), static_cast<double>(t.nsecsElapsed()) / 1e6);
  ExpectSane(spec, l);
}

}  // namespace
}  // namespace af::viewer::test

namespace af::viewer::test {
namespace {

// A chain of kernels (boxes when collapsed, clusters of 3 ops when expanded) with an input
// beside each.
GraphSpec Kernels(int kernels, int expanded) {
  GraphSpec spec;
  int prev = -1;
  for (int k = 0; k < kernels; ++k) {
    GraphSpec::Node in = Box(static_cast<int>(spec.nodes.size()), 60, 24);
    in.name = QStringLiteral("w%1").arg(k);
    spec.nodes.push_back(in);
    const int w = static_cast<int>(spec.nodes.size()) - 1;
    if (k != expanded) {
      GraphSpec::Node b = Box(0, 200, 40);
      b.name = QStringLiteral("kernel%1").arg(k);
      b.group = k;
      b.collapsed = true;
      spec.nodes.push_back(b);
      const int id = static_cast<int>(spec.nodes.size()) - 1;
      if (prev >= 0) spec.edges.push_back({prev, id, {}});
      spec.edges.push_back({w, id, {}});
      prev = id;
      continue;
    }
    const int c = static_cast<int>(spec.clusters.size());
    spec.clusters.push_back({QStringLiteral("kernel%1").arg(k), {}, QColor(Qt::blue), k});
    int last = prev;
    for (int i = 0; i < 3; ++i) {
      GraphSpec::Node op = Box(0);
      op.name = QStringLiteral("op%1_%2").arg(k).arg(i);
      op.group = k;
      op.cluster = c;
      spec.nodes.push_back(op);
      const int id = static_cast<int>(spec.nodes.size()) - 1;
      if (last >= 0) spec.edges.push_back({last, id, {}});
      if (i == 0) spec.edges.push_back({w, id, {}});
      last = id;
    }
    prev = last;
  }
  return spec;
}

QRectF RectOf(const GraphSpec& spec, const GraphLayout& l, const QString& name) {
  for (std::size_t i = 0; i < spec.nodes.size(); ++i)
    if (spec.nodes[i].name == name) return l.nodes[i];
  return {};
}

TEST(ExpandInPlaceTest, KeepsThePictureAndMakesRoom) {
  const GraphSpec before = Kernels(20, -1);
  const GraphLayout l0 = LayeredLayout(before);
  ASSERT_TRUE(l0.ok());
  const GraphSpec after = Kernels(20, 9);
  const std::optional<GraphLayout> l1 = ExpandInPlace(before, l0, after, 9);
  ASSERT_TRUE(l1.has_value());
  ExpectSane(after, *l1);  // (bounds may start left of 0 here)
  const QRectF box = RectOf(before, l0, QStringLiteral("kernel9"));
  for (int k : {2, 8}) {  // above: exactly where they were
    const QString name = QStringLiteral("kernel%1").arg(k);
    EXPECT_EQ(RectOf(after, *l1, name), RectOf(before, l0, name)) << k;
  }
  for (int k : {10, 19}) {  // below: straight down
    const QString name = QStringLiteral("kernel%1").arg(k);
    EXPECT_DOUBLE_EQ(RectOf(after, *l1, name).x(), RectOf(before, l0, name).x());
    EXPECT_GT(RectOf(after, *l1, name).y(), RectOf(before, l0, name).y());
  }
  ASSERT_EQ(l1->clusters.size(), 1u);
  const QRectF frame = l1->clusters[0];
  EXPECT_DOUBLE_EQ(frame.top(), box.top());
  for (std::size_t v = 0; v < after.nodes.size(); ++v) {
    if (after.nodes[v].cluster == 0) {
      EXPECT_TRUE(frame.contains(l1->nodes[v])) << v;
    } else {
      EXPECT_FALSE(frame.intersects(l1->nodes[v])) << after.nodes[v].name.toStdString();
    }
  }
  // Specs that do not correspond: no layout, the caller lays out whole.
  EXPECT_FALSE(ExpandInPlace(before, l0, Kernels(21, 9), 9).has_value());
  EXPECT_FALSE(ExpandInPlace(before, l0, after, 3).has_value());
}

}  // namespace
}  // namespace af::viewer::test
