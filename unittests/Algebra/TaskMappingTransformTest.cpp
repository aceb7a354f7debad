//===- TaskMappingTransformTest.cpp - Random mappings and rewrites --------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The reference evaluator against the library, and the algebra's
// properties and rewrites on random mappings: associativity, bijections,
// flattening, simplify(), mergeFactors, dropUnitDim and project.
//
//===----------------------------------------------------------------------===//

#include "TaskMappingTestSupport.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <optional>
#include <random>
#include <set>

using namespace hidet::algebra;
using namespace hidet::algebra::test;

namespace {

//===----------------------------------------------------------------------===//
// The reference evaluator against tasksOf
//===----------------------------------------------------------------------===//

TEST(ReferenceEvaluator, HandBuiltReferences) {
  // References assembled directly from the definitions, not from the tree.
  EXPECT_TRUE(matchesReference(
      repeat({2, 1}) * spatial({4, 8}),
      refMul(refRepeat({2, 1}, {0, 1}), refSpatial({4, 8}, {0, 1}))));
  EXPECT_TRUE(matchesReference(
      TM::compose({spatial({2, 2}), colRepeat({3, 1}), colSpatial({2, 4})}),
      refMul(refMul(refSpatial({2, 2}, {0, 1}), refRepeat({3, 1}, {1, 0})),
             refSpatial({2, 4}, {1, 0}))));
  EXPECT_TRUE(matchesReference(
      TM::project(spatial({4, 8}) * repeat({2, 2}), {1}),
      refProject(refMul(refSpatial({4, 8}, {0, 1}), refRepeat({2, 2}, {0, 1})),
                 {1})));
  EXPECT_TRUE(matchesReference(TM::repeat({2, 3, 2}, {2, 0, 1}) *
                                   TM::spatial({3, 1, 2}, {1, 2, 0}),
                               refMul(refRepeat({2, 3, 2}, {2, 0, 1}),
                                      refSpatial({3, 1, 2}, {1, 2, 0}))));
}

TEST(ReferenceEvaluator, RandomMappings) {
  MappingGen gen(2024);
  GenOptions opts;
  for (int iter = 0; iter < 400; ++iter) {
    TM m = gen.mapping(opts);
    ASSERT_TRUE(matchesReference(m)) << "iteration " << iter;
    EXPECT_EQ(static_cast<int64_t>(m.tasksOf(0).size()), m.getTasksPerWorker())
        << m.str();
  }
}

//===----------------------------------------------------------------------===//
// Randomized composition properties
//===----------------------------------------------------------------------===//

TEST(RandomComposition, Associativity) {
  MappingGen gen(1);
  GenOptions opts;
  opts.maxDepth = 1;
  opts.budget = 64;
  for (int iter = 0; iter < 300; ++iter) {
    size_t rank = gen.uniform(1, 3);
    TM a = gen.mapping(opts, rank), b = gen.mapping(opts, rank),
       c = gen.mapping(opts, rank);
    TM leftNested = (a * b) * c;
    TM rightNested = a * (b * c);
    TM flat = TM::compose({a, b, c});
    EXPECT_TRUE(sameEnumeration(leftNested, rightNested));
    EXPECT_TRUE(sameEnumeration(leftNested, flat));
    EXPECT_EQ(flat.getTasksPerWorker(), a.getTasksPerWorker() *
                                            b.getTasksPerWorker() *
                                            c.getTasksPerWorker());
  }
}

TEST(RandomComposition, ProjectionFreeMappingsAreBijections) {
  // Without projections every (worker, iteration) pair owns a distinct task:
  // workers are disjoint and together they cover the task grid.
  MappingGen gen(2);
  GenOptions opts;
  opts.allowProject = false;
  opts.maxExtent = 4;
  for (int iter = 0; iter < 300; ++iter) {
    TM m = gen.mapping(opts);
    EXPECT_EQ(m.getNumWorkers() * m.getTasksPerWorker(),
              product(m.getTaskShape()))
        << m.str();
    EXPECT_TRUE(isExactPartition(m));
  }
}

TEST(RandomComposition, TasksPerWorker) {
  MappingGen gen(3);
  GenOptions opts;
  for (int iter = 0; iter < 300; ++iter) {
    TM m = gen.mapping(opts);
    int64_t expected = 1;
    for (const Leaf &leaf : m.flatten())
      if (!leaf.isSpatial)
        expected *= product(leaf.shape);
    EXPECT_EQ(m.getTasksPerWorker(), expected) << m.str();
    for (int64_t w = 0; w < m.getNumWorkers(); ++w)
      ASSERT_EQ(static_cast<int64_t>(m.tasksOf(w).size()),
                m.getTasksPerWorker())
          << m.str() << " on worker " << w;
  }
}

TEST(RandomComposition, FlattenKeepsLeavesInOrder) {
  TM inner = TM::project(spatial({2, 4}) * repeat({2, 1}), {0});
  TM m = TM::compose({repeat({1, 2}), inner, colSpatial({2, 2})});
  std::vector<Leaf> leaves = m.flatten();
  ASSERT_EQ(leaves.size(), 4u);
  EXPECT_FALSE(leaves[0].isSpatial);
  EXPECT_TRUE(leaves[1].isSpatial);
  EXPECT_EQ(leaves[1].shape, Shape({2, 4}));
  EXPECT_EQ(leaves[1].zeroed, std::vector<bool>({true, false}));
  EXPECT_EQ(leaves[2].zeroed, std::vector<bool>({true, false}));
  EXPECT_EQ(leaves[3].zeroed, std::vector<bool>({false, false}));
  EXPECT_EQ(leaves[3].ranks, Ranks({1, 0}));
  EXPECT_EQ(leaves[3].numWorkers(), 4);
  EXPECT_EQ(leaves[2].numWorkers(), 1);
}

//===----------------------------------------------------------------------===//
// simplify()
//===----------------------------------------------------------------------===//

bool isPrimitive(const TM &m) {
  return m.getKind() == TM::Kind::Spatial || m.getKind() == TM::Kind::Repeat;
}

TEST(Simplify, PreservesEnumerationOfRandomMappings) {
  MappingGen gen(4);
  GenOptions opts;
  opts.maxExtent = 4;
  int changed = 0;
  for (int iter = 0; iter < 500; ++iter) {
    TM m = gen.mapping(opts);
    TM s = m.simplify();
    ASSERT_TRUE(sameEnumeration(m, s))
        << "simplify changed " << m.str() << " into " << s.str();
    EXPECT_EQ(s.getTasksPerWorker(), m.getTasksPerWorker()) << m.str();
    changed += s != m;
    // The result is flat: no composition directly inside a composition.
    if (s.getKind() == TM::Kind::Compose) {
      for (const TM &f : s.getFactors())
        EXPECT_NE(f.getKind(), TM::Kind::Compose) << s.str();
    }
  }
  EXPECT_GT(changed, 50) << "the random mappings rarely simplify";
}

TEST(Simplify, IsIdempotent) {
  // A canonical form must be a fixed point.
  MappingGen gen(5);
  GenOptions opts;
  opts.maxExtent = 4;
  for (int iter = 0; iter < 500; ++iter) {
    TM s = gen.mapping(opts).simplify();
    EXPECT_EQ(s.simplify(), s)
        << s.str() << " simplifies further to " << s.simplify().str();
  }
}

TEST(Simplify, MergesSpatialFactors) {
  TM a = (spatial({2, 1}) * spatial({1, 8})).simplify();
  EXPECT_EQ(a, spatial({2, 8})) << a.str();
  TM b = (spatial({4}) * spatial({8})).simplify();
  EXPECT_EQ(b, spatial({32})) << b.str();
  // Column-major: the inner factor takes the fast dimension 0.
  TM c = (colSpatial({1, 4}) * colSpatial({2, 1})).simplify();
  EXPECT_EQ(c, colSpatial({2, 4})) << c.str();
  // Row-major factors whose product is column-major: only the extent-1
  // dimensions leave room for it, so the merge has to find new ranks.
  TM d = (spatial({1, 3}) * spatial({2, 1})).simplify();
  ASSERT_TRUE(isPrimitive(d)) << d.str();
  EXPECT_EQ(d.getRanks(), Ranks({1, 0})) << d.str();
  EXPECT_TRUE(sameEnumeration(d, spatial({1, 3}) * spatial({2, 1})));
}

TEST(Simplify, MergesRepeatFactors) {
  TM m = (repeat({2}) * repeat({3})).simplify();
  ASSERT_EQ(m.getKind(), TM::Kind::Repeat) << m.str();
  EXPECT_EQ(m.getShape(), Shape({6}));
  EXPECT_EQ(m.getRanks(), Ranks({0}));
  // Both loops were fully unrolled, so the merged loop stays fully unrolled.
  EXPECT_EQ(m.getHints(), LoopHints({LoopHint::full()}));
  EXPECT_EQ(m.tasksOf(0), Tasks({{0}, {1}, {2}, {3}, {4}, {5}}));

  TM two = (repeat({4, 1}) * repeat({1, 8})).simplify();
  EXPECT_EQ(two, repeat({4, 8})) << two.str();
}

TEST(Simplify, DropsIdentityFactors) {
  TM a = (spatial({1, 1}) * spatial({4, 8})).simplify();
  EXPECT_EQ(a, spatial({4, 8})) << a.str();
  TM b = TM::compose(
             {repeat({2, 1}), spatial({1, 1}), repeat({1, 1}), spatial({4, 8})})
             .simplify();
  EXPECT_EQ(b, repeat({2, 1}) * spatial({4, 8})) << b.str();
  TM all = (spatial({1, 1}) * repeat({1, 1})).simplify();
  EXPECT_TRUE(isPrimitive(all)) << all.str();
  EXPECT_EQ(all.getTaskShape(), Shape({1, 1}));
  EXPECT_EQ(all.getNumWorkers(), 1);
  EXPECT_EQ(all.tasksOf(0), Tasks({{0, 0}}));
}

TEST(Simplify, FlattensNestedCompositions) {
  TM nested = repeat({2, 1}) * spatial({4, 8}) * repeat({1, 2});
  TM s = nested.simplify();
  EXPECT_EQ(s, TM::compose({repeat({2, 1}), spatial({4, 8}), repeat({1, 2})}))
      << s.str();
  TM deep = TM::compose({TM::compose({TM::compose({repeat({2, 1})})}),
                         spatial({4, 8}) * repeat({1, 2})});
  EXPECT_EQ(deep.simplify(), s) << deep.simplify().str();
}

TEST(Simplify, DropsTrivialProjections) {
  TM base = spatial({4, 1}) * repeat({2, 1});
  TM trivial = TM::project(base, {1});
  EXPECT_EQ(trivial.simplify().getKind(), TM::Kind::Compose)
      << "projecting extent-1 dims is the identity: "
      << trivial.simplify().str();
  EXPECT_TRUE(sameEnumeration(trivial, trivial.simplify()));
  TM real = TM::project(spatial({4, 8}), {0});
  EXPECT_EQ(real.simplify().getKind(), TM::Kind::Project);
}

TEST(Simplify, KeepsNonMergeableSpatialPair) {
  TM m = spatial({4, 8}) * spatial({2, 2});
  TM s = m.simplify();
  ASSERT_EQ(s.getKind(), TM::Kind::Compose) << s.str();
  ASSERT_EQ(s.getFactors().size(), 2u);
  EXPECT_EQ(s.getFactors()[0], spatial({4, 8}));
  EXPECT_EQ(s.getFactors()[1], spatial({2, 2}));
  // No single spatial mapping has this enumeration: its task shape would be
  // (8, 16), and worker 1 moving along dimension 1 would make dimension 1
  // (extent 16) the innermost, so worker 2 would get (0, 2), not (1, 0).
  EXPECT_EQ(m.tasksOf(1), Tasks({{0, 1}}));
  EXPECT_EQ(m.tasksOf(2), Tasks({{1, 0}}));
  EXPECT_EQ(m.tasksOf(4), Tasks({{0, 2}}));
  for (const Ranks &ranks : {rowMajorRanks(2), colMajorRanks(2)})
    EXPECT_FALSE(sameEnumeration(m, TM::spatial({8, 16}, ranks)))
        << "ranks " << show(ranks);
  EXPECT_FALSE(mergeFactors(spatial({4, 8}), spatial({2, 2})).has_value());
}

//===----------------------------------------------------------------------===//
// mergeFactors
//===----------------------------------------------------------------------===//

/// Whether `outer * inner` equals a primitive of the same kind, by trying
/// every ranks permutation of the merged shape.
bool mergeableByBruteForce(const TM &outer, const TM &inner) {
  TM product = outer * inner;
  Ranks ranks = rowMajorRanks(outer.getRank());
  do {
    TM candidate = outer.getKind() == TM::Kind::Spatial
                       ? TM::spatial(product.getTaskShape(), ranks)
                       : TM::repeat(product.getTaskShape(), ranks);
    if (sameEnumeration(product, candidate))
      return true;
  } while (std::next_permutation(ranks.begin(), ranks.end()));
  return false;
}

TEST(MergeFactors, RandomPairs) {
  MappingGen gen(6);
  GenOptions opts;
  opts.maxExtent = 4;
  int merged = 0, notMerged = 0;
  for (int iter = 0; iter < 1000; ++iter) {
    size_t rank = gen.uniform(1, 3);
    bool isSpatial = gen.coin();
    TM outer = gen.leaf(rank, opts, isSpatial);
    TM inner = gen.leaf(rank, opts, isSpatial);
    if (!isSpatial) {
      // Hints decide mergeability too; test the pure geometry here.
      outer = TM::repeat(outer.getShape(), outer.getRanks(),
                         LoopHints(rank, LoopHint::none()));
      inner = TM::repeat(inner.getShape(), inner.getRanks(),
                         LoopHints(rank, LoopHint::none()));
    }
    std::optional<TM> m = mergeFactors(outer, inner);
    bool possible = mergeableByBruteForce(outer, inner);
    if (m) {
      ++merged;
      EXPECT_EQ(m->getKind(), outer.getKind());
      EXPECT_TRUE(sameEnumeration(*m, outer * inner));
    } else {
      ++notMerged;
    }
    EXPECT_EQ(m.has_value(), possible)
        << outer.str() << " * " << inner.str()
        << (possible ? " equals a primitive mapping but was not merged"
                     : " was merged");
  }
  EXPECT_GT(merged, 100);
  EXPECT_GT(notMerged, 100);
}

TEST(MergeFactors, RejectsMixedAndComposite) {
  EXPECT_FALSE(mergeFactors(spatial({4}), repeat({2})).has_value());
  EXPECT_FALSE(mergeFactors(repeat({2}), spatial({4})).has_value());
  EXPECT_FALSE(
      mergeFactors(spatial({2}) * spatial({2}), spatial({2})).has_value());
  EXPECT_FALSE(mergeFactors(TM::project(spatial({2, 2}), {0}), spatial({1, 2}))
                   .has_value());
  // The outer factor splits dimension 1 above the inner dimension 0 in the
  // worker numbering, which no mixed-radix numbering of (2, 8) does.
  EXPECT_FALSE(mergeFactors(spatial({1, 2}), spatial({2, 4})).has_value());
}

TEST(MergeFactors, HintsMustAgree) {
  TM full2 = TM::repeat({2}, {}, {LoopHint::full()});
  TM none3 = TM::repeat({3}, {}, {LoopHint::none()});
  TM none4 = TM::repeat({4}, {}, {LoopHint::none()});
  TM by2 = TM::repeat({4}, {}, {LoopHint::unrollBy(2)});
  EXPECT_FALSE(mergeFactors(full2, none3).has_value())
      << "different hints on a shared loop";
  EXPECT_FALSE(mergeFactors(by2, by2).has_value())
      << "unroll factors do not compose";
  std::optional<TM> m = mergeFactors(none3, none4);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(*m, TM::repeat({12}, {}, {LoopHint::none()}));
  // A dimension iterated by one factor only keeps that factor's hint.
  std::optional<TM> one = mergeFactors(
      TM::repeat({4, 1}, {}, {by2.getHints()[0], LoopHint::full()}),
      TM::repeat({1, 8}));
  ASSERT_TRUE(one.has_value());
  EXPECT_EQ(one->getHints()[0], LoopHint::unrollBy(2));
  EXPECT_EQ(one->getHints()[1], LoopHint::none());
  EXPECT_TRUE(sameEnumeration(
      *one, TM::repeat({4, 1}, {}, {by2.getHints()[0], LoopHint::full()}) *
                TM::repeat({1, 8})));
}

//===----------------------------------------------------------------------===//
// dropUnitDim
//===----------------------------------------------------------------------===//

Task without(const Task &t, size_t dim) {
  Task r = t;
  r.erase(r.begin() + dim);
  return r;
}

TEST(DropUnitDim, Examples) {
  EXPECT_EQ(spatial({4, 1, 8}).dropUnitDim(1), spatial({4, 8}));
  EXPECT_EQ(TM::spatial({4, 1, 8}, {2, 0, 1}).dropUnitDim(1),
            TM::spatial({4, 8}, {1, 0}));
  TM r = TM::repeat({1, 3}, {1, 0}, {LoopHint::full(), LoopHint::unrollBy(3)})
             .dropUnitDim(0);
  EXPECT_EQ(r, TM::repeat({3}, {0}, {LoopHint::unrollBy(3)}));
  EXPECT_EQ(TM::project(spatial({4, 1}), {1}).dropUnitDim(1), spatial({4}))
      << "a projection of only the dropped dim disappears";
  TM p = TM::project(spatial({4, 1, 8}), {0, 1}).dropUnitDim(1);
  ASSERT_EQ(p.getKind(), TM::Kind::Project);
  EXPECT_EQ(p.getProjectedDims(), std::vector<int64_t>({0}));
}

TEST(DropUnitDim, RandomMappings) {
  MappingGen gen(8);
  for (int iter = 0; iter < 300; ++iter) {
    size_t rank = gen.uniform(2, 3);
    GenOptions opts;
    opts.unitDim = gen.uniform(0, rank - 1);
    TM m = gen.mapping(opts, rank);
    TM d = m.dropUnitDim(opts.unitDim);
    EXPECT_EQ(d.getRank(), rank - 1) << m.str();
    EXPECT_EQ(d.getNumWorkers(), m.getNumWorkers()) << m.str();
    EXPECT_EQ(d.getTaskShape(), without(m.getTaskShape(), opts.unitDim))
        << m.str();
    for (int64_t w = 0; w < 2 * m.getNumWorkers(); ++w) {
      Tasks expected;
      for (const Task &t : m.tasksOf(w))
        expected.push_back(without(t, opts.unitDim));
      ASSERT_EQ(d.tasksOf(w), expected)
          << m.str() << " without dim " << opts.unitDim << " = " << d.str()
          << ", worker " << w;
    }
    EXPECT_TRUE(matchesReference(d));
  }
}

//===----------------------------------------------------------------------===//
// project
//===----------------------------------------------------------------------===//

TEST(Project, Example) {
  TM m = TM::project(spatial({4, 8}), {1});
  EXPECT_EQ(m.getKind(), TM::Kind::Project);
  EXPECT_EQ(m.getNumWorkers(), 32);
  EXPECT_EQ(m.getTaskShape(), Shape({4, 1}));
  EXPECT_EQ(m.tasksOf(13), Tasks({{1, 0}}));
  TM dups = TM::project(spatial({2, 2, 2}), {2, 0, 2});
  EXPECT_EQ(dups.getProjectedDims(), std::vector<int64_t>({0, 2}))
      << "dims are normalized to a sorted set";
  EXPECT_EQ(dups.getTaskShape(), Shape({1, 2, 1}));
}

TEST(Project, RandomMappings) {
  MappingGen gen(9);
  GenOptions opts;
  for (int iter = 0; iter < 300; ++iter) {
    TM base = gen.mapping(opts);
    std::vector<int64_t> dims;
    for (size_t i = 0; i < base.getRank(); ++i)
      if (gen.coin())
        dims.push_back(i);
    if (dims.empty())
      dims.push_back(gen.uniform(0, base.getRank() - 1));
    TM p = TM::project(base, dims);
    EXPECT_EQ(p.getNumWorkers(), base.getNumWorkers()) << p.str();
    EXPECT_EQ(p.getTasksPerWorker(), base.getTasksPerWorker()) << p.str();
    Shape shape = base.getTaskShape();
    for (int64_t d : dims)
      shape[d] = 1;
    EXPECT_EQ(p.getTaskShape(), shape) << p.str();
    for (int64_t w = 0; w < base.getNumWorkers(); ++w) {
      Tasks expected = base.tasksOf(w);
      for (Task &t : expected)
        for (int64_t d : dims)
          t[d] = 0;
      ASSERT_EQ(p.tasksOf(w), expected) << p.str() << " worker " << w;
    }
  }
}

} // namespace
