//===- hidet-pass-fuzzer.cpp - The project's passes on generated modules --===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The input's bytes choose a valid module and a pipeline:
//
//  - an anchor (matmul, batch matmul, 2-D convolution) or another op
//    (elementwise chain, reduction, softmax, transpose, an attention) of
//    random extents
//    and element type, maybe followed by a bias + ReLU epilogue and a
//    transpose, on tensors through the whole kernel-scheduling flow
//    (hidet-bufferize, hidet-schedule-kernels), or on buffers with a random
//    #hidet.schedule and #hidet.fusion (any field, in range or not) through
//    hidet-schedule-kernels;
//  - a tm.foreach over a random composition of spatial and repeat mappings
//    through convert-tm-to-scf.
//
// Every run must end in one of two ways: the pipeline succeeds and the
// module verifies, or it fails with at least one error. A crash, a failure
// without an error, or invalid output is a finding.
//
//===----------------------------------------------------------------------===//

#include "FuzzerContext.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdlib>
#include <string>
#include <vector>

using namespace mlir;

namespace {

/// Builds the text of one generated module from the fuzzer's bytes.
class Generator {
public:
  explicit Generator(FuzzedDataProvider &in) : in(in) {}

  /// The module and the pipeline to run on it.
  std::pair<std::string, std::string> generate() {
    switch (in.ConsumeIntegralInRange<int>(0, 2)) {
    case 0:
      return {onTensors(), "builtin.module(hidet-bufferize,"
                           "hidet-schedule-kernels{chip=" +
                               chip() + "})"};
    case 1:
      return {onBuffers(), "builtin.module(hidet-schedule-kernels{chip=" +
                               chip() + " fuse=0})"};
    default:
      return {taskMapping(), "builtin.module(convert-tm-to-scf,canonicalize)"};
    }
  }

private:
  FuzzedDataProvider &in;

  std::string chip() {
    static const char *chips[] = {"sm_80", "sm_86", "sm_89", "sm_90a"};
    return chips[in.ConsumeIntegralInRange<int>(0, 3)];
  }
  std::string elt() {
    static const char *types[] = {"f16", "f32", "bf16"};
    return types[in.ConsumeIntegralInRange<int>(0, 2)];
  }
  /// An extent: mostly small and ragged, sometimes a tile multiple.
  int64_t extent() {
    if (in.ConsumeBool())
      return 16 * in.ConsumeIntegralInRange<int64_t>(1, 16);
    return in.ConsumeIntegralInRange<int64_t>(1, 130);
  }
  /// A schedule field: in range most of the time, anything sometimes.
  int64_t field(std::initializer_list<int64_t> usual) {
    if (in.ConsumeIntegralInRange<int>(0, 7) == 0)
      return in.ConsumeIntegralInRange<int64_t>(-2, 600);
    std::vector<int64_t> v(usual);
    return v[in.ConsumeIntegralInRange<size_t>(0, v.size() - 1)];
  }
  static std::string shape(llvm::ArrayRef<int64_t> dims, StringRef elt) {
    std::string s;
    for (int64_t d : dims)
      s += std::to_string(d) + "x";
    return s + elt.str();
  }

  std::string scheduleAttr() {
    switch (in.ConsumeIntegralInRange<int>(0, 3)) {
    case 0:
      return "";
    case 1: {
      std::string s = llvm::formatv(
          "#hidet.wgmma_matmul<block = [{0}, {1}]", field({64, 128, 256}),
          field({64, 128, 192, 256}));
      if (in.ConsumeBool())
        s += llvm::formatv(", stages = {0}", field({2, 3, 4, 5}));
      if (in.ConsumeBool())
        s += llvm::formatv(", swizzle = {0}", field({1, 4, 8}));
      if (in.ConsumeBool())
        s += llvm::formatv(", split_k = {0}", field({1, 2, 4}));
      if (in.ConsumeBool())
        s += ", persistent = true";
      if (in.ConsumeBool())
        s += ", pingpong = true";
      return s + ">";
    }
    case 2: {
      std::string s = llvm::formatv(
          "#hidet.mma_matmul<block = [{0}, {1}, {2}], warp = [{3}, {4}], "
          "mma = [16, 8, {5}]",
          field({16, 32, 64, 128}), field({32, 64, 128}), field({32, 64}),
          field({16, 32, 64}), field({16, 32, 64}), field({8, 16}));
      if (in.ConsumeBool())
        s += llvm::formatv(", stages = {0}", field({2, 3, 4}));
      if (in.ConsumeBool())
        s += llvm::formatv(", split_k = {0}", field({1, 2, 4}));
      return s + ">";
    }
    default:
      return llvm::formatv(
          "#hidet.simt_matmul<block_warps = [{0}, {1}], warp_outer = [{2}, "
          "{3}], warp_mid = [{4}, {5}], warp_inner = [{6}, {7}], block_k = "
          "{8}>",
          field({1, 2, 4}), field({1, 2, 4}), field({1, 2}), field({1, 2}),
          field({4, 8}), field({4, 8}), field({4, 8}), field({4, 8}),
          field({8, 16}));
    }
  }

  /// The anchor, as an op on `kind` operands named %a, %b into %c.
  struct Anchor {
    std::string args, body, result;
    std::vector<int64_t> resultShape;
  };

  Anchor anchor(bool tensors, StringRef t, StringRef ct) {
    Anchor a;
    auto ty = [&](llvm::ArrayRef<int64_t> dims, StringRef e) {
      return (tensors ? "tensor<" : "memref<") + shape(dims, e) + ">";
    };
    int kind = in.ConsumeIntegralInRange<int>(0, 2);
    std::string name, ins;
    std::vector<int64_t> as, bs, cs;
    if (kind == 0) {
      int64_t m = extent(), n = extent(), k = extent();
      as = {m, k}, bs = {k, n}, cs = {m, n}, name = "linalg.matmul";
    } else if (kind == 1) {
      int64_t bt = in.ConsumeIntegralInRange<int64_t>(1, 4);
      int64_t m = extent(), n = extent(), k = extent();
      as = {bt, m, k}, bs = {bt, k, n}, cs = {bt, m, n};
      name = "linalg.batch_matmul";
    } else {
      int64_t nb = in.ConsumeIntegralInRange<int64_t>(1, 2);
      int64_t kh = in.ConsumeIntegralInRange<int64_t>(1, 3);
      int64_t kw = in.ConsumeIntegralInRange<int64_t>(1, 3);
      int64_t sh = in.ConsumeIntegralInRange<int64_t>(1, 2);
      int64_t sw = in.ConsumeIntegralInRange<int64_t>(1, 2);
      int64_t dh = in.ConsumeIntegralInRange<int64_t>(1, 2);
      int64_t dw = in.ConsumeIntegralInRange<int64_t>(1, 2);
      int64_t c = in.ConsumeIntegralInRange<int64_t>(1, 40);
      int64_t f = in.ConsumeIntegralInRange<int64_t>(1, 72);
      int64_t oh = in.ConsumeIntegralInRange<int64_t>(1, 12);
      int64_t ow = in.ConsumeIntegralInRange<int64_t>(1, 12);
      int64_t h = (oh - 1) * sh + (kh - 1) * dh + 1;
      int64_t w = (ow - 1) * sw + (kw - 1) * dw + 1;
      as = {nb, h, w, c}, bs = {kh, kw, c, f}, cs = {nb, oh, ow, f};
      name = llvm::formatv("linalg.conv_2d_nhwc_hwcf {{dilations = dense<[{0}, "
                           "{1}]> : tensor<2xi64>, strides = dense<[{2}, {3}]> "
                           ": tensor<2xi64>}",
                           dh, dw, sh, sw);
    }
    a.args = "%a: " + ty(as, t) + ", %b: " + ty(bs, t);
    a.resultShape = cs;
    std::string cty = ty(cs, ct);
    if (tensors) {
      a.body = "  %e = tensor.empty() : " + cty + "\n" +
               "  %c = linalg.fill ins(%z : " + ct.str() + ") outs(%e : " +
               cty + ") -> " + cty + "\n" + "  %r = " + name +
               " ins(%a, %b : " + ty(as, t) + ", " + ty(bs, t) +
               ") outs(%c : " + cty + ") -> " + cty + "\n";
      a.result = "%r";
    } else {
      a.args += ", %c: " + cty;
      std::string sched = scheduleAttr();
      std::string fusion =
          in.ConsumeBool() ? "" : "hidet.fusion = #hidet.fusion<group = 0, "
                                  "role = anchor>";
      std::string attrs;
      if (!sched.empty() || !fusion.empty()) {
        attrs = " {";
        if (!sched.empty())
          attrs += "hidet.schedule = " + sched + (fusion.empty() ? "" : ", ");
        attrs += fusion + "}";
      }
      // An attribute dictionary goes after the op's own, if any.
      if (StringRef(name).ends_with("}"))
        name = name.substr(0, name.size() - 1) +
               (attrs.empty() ? "}" : ", " + attrs.substr(2));
      else
        name += attrs;
      a.body = "  linalg.fill ins(%z : " + ct.str() + ") outs(%c : " + cty +
               ")\n" + "  " + name + " ins(%a, %b : " + ty(as, t) + ", " +
               ty(bs, t) + ") outs(%c : " + cty + ")\n";
      a.result = "%c";
    }
    return a;
  }

  /// Rank-n identity and row-broadcast maps.
  static std::string idMap(size_t rank) {
    std::string dims;
    for (size_t i = 0; i < rank; ++i)
      dims += (i ? ", d" : "d") + std::to_string(i);
    return "affine_map<(" + dims + ") -> (" + dims + ")>";
  }
  static std::string lastMap(size_t rank) {
    std::string dims;
    for (size_t i = 0; i < rank; ++i)
      dims += (i ? ", d" : "d") + std::to_string(i);
    return "affine_map<(" + dims + ") -> (d" + std::to_string(rank - 1) +
           ")>";
  }
  static std::string parallel(size_t rank) {
    std::string s;
    for (size_t i = 0; i < rank; ++i)
      s += i ? ", \"parallel\"" : "\"parallel\"";
    return s;
  }

  /// An attention: S = Q K^T (K given as is or transposed, maybe with a
  /// written #hidet.attention), a scale or a bias row on the scores, a
  /// softmax over their rows, O = P V; head sizes from the fused template's
  /// range and outside it.
  std::string attention(StringRef t) {
    static const int64_t heads[] = {8, 16, 32, 48, 64, 128, 136};
    auto head = [&]() {
      return in.ConsumeBool() ? heads[in.ConsumeIntegralInRange<int>(0, 6)]
                              : extent();
    };
    int64_t bt = in.ConsumeIntegralInRange<int64_t>(1, 6);
    int64_t m = extent(), n = extent(), d = head(), dv = head();
    auto ty = [&](std::initializer_list<int64_t> dims) {
      return "tensor<" + shape(std::vector<int64_t>(dims), t) + ">";
    };
    std::string q = ty({bt, m, d}), kt = ty({bt, d, n}), s = ty({bt, m, n});
    std::string v = ty({bt, n, dv}), o = ty({bt, m, dv});
    bool transposed = in.ConsumeBool();
    std::string args = "%q: " + q +
                       ", %k: " + (transposed ? ty({bt, n, d}) : kt) +
                       ", %v: " + v;
    std::string body = "  %z = arith.constant 0.0 : " + t.str() + "\n";
    std::string keys = "%k";
    if (transposed) {
      body += "  %ekt = tensor.empty() : " + kt +
              "\n  %kt = linalg.transpose ins(%k : " + ty({bt, n, d}) +
              ") outs(%ekt : " + kt + ") permutation = [0, 2, 1]\n";
      keys = "%kt";
    }
    std::string written;
    if (in.ConsumeBool())
      written = llvm::formatv(
          " {{hidet.attention = #hidet.attention<block_q = {0}, block_kv = "
          "{1}>}",
          field({16, 32, 64, 128}), field({16, 32, 64}));
    body += "  %e = tensor.empty() : " + s +
            "\n  %f = linalg.fill ins(%z : " + t.str() + ") outs(%e : " + s +
            ") -> " + s + "\n  %s = linalg.batch_matmul" + written +
            " ins(%q, " + keys + " : " + q + ", " + kt + ") outs(%f : " + s +
            ") -> " + s + "\n";
    std::string scores = "%s";
    int epilogue = in.ConsumeIntegralInRange<int>(0, 2);
    if (epilogue == 1)
      body += "  %x = linalg.generic {indexing_maps = [" + idMap(3) + ", " +
              idMap(3) + "], iterator_types = [" + parallel(3) +
              "]} ins(%s : " + s + ") outs(%e : " + s +
              ") {\n  ^bb0(%p: " + t.str() + ", %w: " + t.str() +
              "):\n    %c = arith.constant 0.125 : " + t.str() +
              "\n    %y = arith.mulf %p, %c : " + t.str() +
              "\n    linalg.yield %y : " + t.str() + "\n  } -> " + s + "\n";
    if (epilogue == 2) {
      args += ", %bias: tensor<" + std::to_string(n) + "x" + t.str() + ">";
      body += "  %x = linalg.generic {indexing_maps = [" + idMap(3) + ", " +
              lastMap(3) + ", " + idMap(3) + "], iterator_types = [" +
              parallel(3) + "]} ins(%s, %bias : " + s + ", tensor<" +
              std::to_string(n) + "x" + t.str() + ">) outs(%e : " + s +
              ") {\n  ^bb0(%p: " + t.str() + ", %b: " + t.str() +
              ", %w: " + t.str() +
              "):\n    %y = arith.addf %p, %b : " + t.str() +
              "\n    linalg.yield %y : " + t.str() + "\n  } -> " + s + "\n";
    }
    if (epilogue)
      scores = "%x";
    body += "  %p = linalg.softmax dimension(2) ins(" + scores + " : " + s +
            ") outs(%e : " + s + ") -> " + s +
            "\n  %eo = tensor.empty() : " + o +
            "\n  %fo = linalg.fill ins(%z : " + t.str() + ") outs(%eo : " + o +
            ") -> " + o + "\n  %o = linalg.batch_matmul ins(%p, %v : " + s +
            ", " + v + ") outs(%fo : " + o + ") -> " + o + "\n";
    return "func.func @f(" + args + ") -> " + o + " {\n" + body +
           "  return %o : " + o + "\n}\n";
  }

  std::string onTensors() {
    std::string t = elt();
    std::string ct = t == "f32" || in.ConsumeBool() ? t : "f32";
    std::string z = "  %z = arith.constant 0.0 : " + ct + "\n";
    int what = in.ConsumeIntegralInRange<int>(0, 4);
    if (what == 0) {
      // An anchor, maybe with a bias + ReLU epilogue and a transpose.
      Anchor a = anchor(/*tensors=*/true, t, ct);
      std::vector<int64_t> s = a.resultShape;
      std::string ty = "tensor<" + shape(s, ct) + ">";
      std::string args = a.args, body = z + a.body, result = a.result;
      if (in.ConsumeBool()) {
        args += ", %bias: tensor<" + std::to_string(s.back()) + "x" + ct + ">";
        body += "  %e2 = tensor.empty() : " + ty + "\n" +
                "  %y = linalg.generic {indexing_maps = [" + idMap(s.size()) +
                ", " + lastMap(s.size()) + ", " + idMap(s.size()) +
                "], iterator_types = [" + parallel(s.size()) + "]} ins(" +
                result + ", %bias : " + ty + ", tensor<" +
                std::to_string(s.back()) + "x" + ct + ">) outs(%e2 : " + ty +
                ") {\n  ^bb0(%p: " + ct + ", %q: " + ct + ", %o: " + ct +
                "):\n    %s = arith.addf %p, %q : " + ct +
                "\n    %u = arith.maximumf %s, %z : " + ct +
                "\n    linalg.yield %u : " + ct + "\n  } -> " + ty + "\n";
        result = "%y";
      }
      if (s.size() >= 2 && in.ConsumeBool()) {
        std::vector<int64_t> perm(s.size()), ts(s.size());
        for (size_t i = 0; i < s.size(); ++i)
          perm[i] = i;
        std::swap(perm[s.size() - 1], perm[s.size() - 2]);
        for (size_t i = 0; i < s.size(); ++i)
          ts[i] = s[perm[i]];
        std::string tty = "tensor<" + shape(ts, ct) + ">";
        body += "  %e3 = tensor.empty() : " + tty + "\n" +
                "  %t = linalg.transpose ins(" + result + " : " + ty +
                ") outs(%e3 : " + tty + ") permutation = [" +
                llvm::join(llvm::map_range(perm,
                                           [](int64_t p) {
                                             return std::to_string(p);
                                           }),
                           ", ") +
                "]\n";
        result = "%t";
        ty = tty;
      }
      return "func.func @f(" + args + ") -> " + ty + " {\n" + body +
             "  return " + result + " : " + ty + "\n}\n";
    }
    // Another op on a random 1-3 D tensor.
    size_t rank = in.ConsumeIntegralInRange<size_t>(1, 3);
    std::vector<int64_t> s;
    for (size_t i = 0; i < rank; ++i)
      s.push_back(extent());
    std::string ty = "tensor<" + shape(s, t) + ">";
    std::string head = "func.func @f(%x: " + ty + ", %y: " + ty + ")";
    if (what == 1) {
      static const char *ops[] = {"arith.addf", "arith.mulf", "arith.divf",
                                  "arith.maximumf", "arith.subf"};
      static const char *unary[] = {"math.exp", "math.tanh", "math.sqrt",
                                    "math.absf", "math.erf"};
      std::string chain;
      std::string cur = "%p";
      int n = in.ConsumeIntegralInRange<int>(1, 4);
      for (int i = 0; i < n; ++i) {
        std::string next = "%v" + std::to_string(i);
        if (in.ConsumeBool())
          chain += "    " + next + " = " +
                   ops[in.ConsumeIntegralInRange<int>(0, 4)] + " " + cur +
                   ", %q : " + t + "\n";
        else
          chain += "    " + next + " = " +
                   unary[in.ConsumeIntegralInRange<int>(0, 4)] + " " + cur +
                   " : " + t + "\n";
        cur = next;
      }
      return head + " -> " + ty + " {\n  %e = tensor.empty() : " + ty +
             "\n  %r = linalg.generic {indexing_maps = [" + idMap(rank) +
             ", " + idMap(rank) + ", " + idMap(rank) +
             "], iterator_types = [" + parallel(rank) +
             "]} ins(%x, %y : " + ty + ", " + ty + ") outs(%e : " + ty +
             ") {\n  ^bb0(%p: " + t + ", %q: " + t + ", %o: " + t + "):\n" +
             chain + "    linalg.yield " + cur + " : " + t + "\n  } -> " + ty +
             "\n  return %r : " + ty + "\n}\n";
    }
    if (what == 2 || what == 3) {
      // A sum over one dimension, or a softmax over the last.
      std::vector<int64_t> rs(s.begin(), s.end() - 1);
      // A softmax is sometimes an attention's (the choice is made last, so
      // that the inputs that chose a softmax before still do).
      if (what == 3 && in.ConsumeIntegralInRange<int>(0, 3) == 3)
        return attention(t);
      if (what == 3) {
        return head + " -> " + ty + " {\n  %e = tensor.empty() : " + ty +
               "\n  %r = linalg.softmax dimension(" +
               std::to_string(rank - 1) + ") ins(%x : " + ty +
               ") outs(%e : " + ty + ") -> " + ty + "\n  return %r : " + ty +
               "\n}\n";
      }
      size_t d = in.ConsumeIntegralInRange<size_t>(0, rank - 1);
      std::vector<int64_t> out;
      std::string outDims, inDims, iters;
      for (size_t i = 0; i < rank; ++i) {
        inDims += (i ? ", d" : "d") + std::to_string(i);
        iters += std::string(i ? ", " : "") +
                 (i == d ? "\"reduction\"" : "\"parallel\"");
        if (i != d) {
          out.push_back(s[i]);
          outDims += (outDims.empty() ? "d" : ", d") + std::to_string(i);
        }
      }
      std::string oty = "tensor<" + shape(out, t) + ">";
      return head + " -> " + oty + " {\n  %z = arith.constant 0.0 : " + t +
             "\n  %e = tensor.empty() : " + oty +
             "\n  %c = linalg.fill ins(%z : " + t + ") outs(%e : " + oty +
             ") -> " + oty + "\n  %r = linalg.generic {indexing_maps = [" +
             "affine_map<(" + inDims + ") -> (" + inDims + ")>, affine_map<(" +
             inDims + ") -> (" + outDims + ")>], iterator_types = [" + iters +
             "]} ins(%x : " + ty + ") outs(%c : " + oty +
             ") {\n  ^bb0(%p: " + t + ", %o: " + t +
             "):\n    %s = arith.addf %p, %o : " + t +
             "\n    linalg.yield %s : " + t + "\n  } -> " + oty +
             "\n  return %r : " + oty + "\n}\n";
    }
    // A transpose by a random permutation.
    std::vector<int64_t> perm(rank), ts(rank);
    for (size_t i = 0; i < rank; ++i)
      perm[i] = i;
    for (size_t i = rank; i > 1; --i)
      std::swap(perm[i - 1], perm[in.ConsumeIntegralInRange<size_t>(0, i - 1)]);
    for (size_t i = 0; i < rank; ++i)
      ts[i] = s[perm[i]];
    std::string tty = "tensor<" + shape(ts, t) + ">";
    return head + " -> " + tty + " {\n  %e = tensor.empty() : " + tty +
           "\n  %r = linalg.transpose ins(%x : " + ty + ") outs(%e : " + tty +
           ") permutation = [" +
           llvm::join(llvm::map_range(
                          perm, [](int64_t p) { return std::to_string(p); }),
                      ", ") +
           "]\n  return %r : " + tty + "\n}\n";
  }

  std::string onBuffers() {
    std::string t = elt();
    std::string ct = t == "f32" || in.ConsumeBool() ? t : "f32";
    Anchor a = anchor(/*tensors=*/false, t, ct);
    return "func.func @f(" + a.args + ") {\n  %z = arith.constant 0.0 : " +
           ct + "\n" + a.body + "  return\n}\n";
  }

  std::string mapping(size_t rank) {
    std::string dims;
    for (size_t i = 0; i < rank; ++i)
      dims += (i ? ", " : "") +
              std::to_string(in.ConsumeIntegralInRange<int64_t>(1, 9));
    if (in.ConsumeBool())
      return "spatial<[" + dims + "]>";
    return "repeat<[" + dims + "]>";
  }

  std::string taskMapping() {
    size_t rank = in.ConsumeIntegralInRange<size_t>(1, 3);
    int factors = in.ConsumeIntegralInRange<int>(1, 3);
    std::string m = mapping(rank);
    for (int i = 1; i < factors; ++i)
      m += " * " + mapping(rank);
    std::string ivs;
    for (size_t i = 0; i < rank; ++i)
      ivs += (i ? ", %i" : "%i") + std::to_string(i);
    std::string attr = factors == 1 ? "#tm." + m : "#tm.compose<" + m + ">";
    return "func.func @f(%w: index, %buf: memref<?xindex>) {\n"
           "  tm.foreach (" +
           ivs + ") in " + attr +
           " on %w {\n"
           "    memref.store %i0, %buf[%i0] : memref<?xindex>\n"
           "  }\n"
           "  return\n}\n";
  }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MLIRContext &ctx = hidet::fuzz::context();
  FuzzedDataProvider in(data, size);
  auto [text, pipeline] = Generator(in).generate();
  // HIDET_FUZZ_VERBOSE=1: each module and pipeline, to reproduce a finding
  // by hand with hidet-opt.
  static bool verbose = std::getenv("HIDET_FUZZ_VERBOSE");
  if (verbose)
    llvm::errs() << "// " << pipeline << "\n" << text;
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &ctx);
  if (!module) {
    // Out-of-range schedule fields are rejected by the attributes'
    // verifiers, with an error.
    if (hidet::fuzz::takeErrorCount() == 0)
      hidet::fuzz::report("a generated module was rejected without an error",
                          text);
    return 0;
  }
  hidet::fuzz::takeErrorCount();
  PassManager pm(&ctx);
  // The module is verified once at the end: an invalid intermediate module
  // is either caught there or crashes a later pass, both findings.
  pm.enableVerifier(false);
  std::string error;
  llvm::raw_string_ostream os(error);
  if (failed(parsePassPipeline(pipeline, pm, os)))
    hidet::fuzz::report("the pipeline does not parse: " + pipeline, text,
                        error);
  if (failed(pm.run(*module))) {
    if (hidet::fuzz::takeErrorCount() == 0)
      hidet::fuzz::report("'" + pipeline + "' failed without an error", text);
    return 0;
  }
  if (failed(verify(*module)))
    hidet::fuzz::report("'" + pipeline + "' produced a module that does not "
                                         "verify",
                        text);
  if (hidet::fuzz::takeErrorCount() != 0)
    hidet::fuzz::report("'" + pipeline + "' succeeded with an error", text);
  return 0;
}
