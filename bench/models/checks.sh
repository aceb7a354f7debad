# shellcheck shell=sh
# The checks of a whole model's outputs against PyTorch's float32 outputs
# for the same weights and inputs, one definition for bench/models (run.sh,
# ab.sh) and bench/tuning-models (its winners and its timed libraries):
# sourced by each (run.sh prepare copies it with the other scripts).
#
# hidet-run checks every output against its expected file:
#   each element   |out - exp| <= K * rms(exp) + RTOL * |exp|
#   the output     ||out - exp||_2 / ||exp||_2 <= RELL2
# rms(exp) being the root mean square of that output (hidet-run --atol-rms
# K). The absolute term scales with the output, so that no check is vacuous
# whatever its magnitude: the logits of MobileNetV2 and EfficientNet-B0 have
# an RMS of 0.024 and stay below 0.09, those of ResNet-50 an RMS of 37 and
# reach 151 (random weights, seed 0), and a fixed absolute tolerance either
# passes anything on the first or fails correct results on the second.
#
# The bounds are multiples of the unit roundoff u of the dtype that limits
# each precision's result: f16's (2^-11) for --precision=f16, whose
# activations are stored in f16 (sums in f32), f32's (2^-24) otherwise.
#
# RELL2, the whole output: f16 1e-2 (20 u), f32 1e-4. A correct f16
#   evaluation of these models is 0.8 u to 4.5 u from float32 (relative L2
#   error: PyTorch's own f16 3.8e-4 to 1.9e-3 and hidet's 4.1e-4 to 1.9e-3
#   on the H200, bench/results/models-h200.json; hidet's CPU build 9.9e-4
#   to 2.2e-3); f32 ones differ by the order of their sums, by up to 2.3e-6
#   (38 u).
# K and RTOL, each element: it may be off by K times the output's RMS plus
#   RTOL times its own magnitude, K = RTOL = 2^7 u in f16 (0.061) and 2^10 u
#   in f32 (6.1e-5). Errors grow with the element (BERT's layer-normed
#   outputs reach 7 times their RMS, and its largest f16 error, 0.021, is at
#   an element of 2.3), so the bound is in RMS + |exp|: measured as
#   max |out - exp| / (rms(exp) + |exp|) on hidet's CPU builds of the six
#   models at batch 1 (padded inputs), the largest is 17 u in f16 and 124 u
#   in f32 (BERT-base and GPT-2 small), 7.5 and 8.3 times below the bounds. On
#   the H200 the largest error over the RMS alone, which bounds that ratio
#   from above, is 68 u (0.033) in f16 and 241 u (1.4e-5) in f32 (BERT-base
#   at batch 32): within the bounds even at an element of 0.
#   f32 takes a larger multiple of its u than f16: an f16 result carries the
#   rounding of each stored activation, a few u, an f32 one that of sums of
#   up to 3072 terms taken in another order than PyTorch's (about
#   sqrt(3072) = 55 u each) through 12 layers.
# bf16 (--precision=bf16, u = 2^-8) takes the same multiples of its u as
#   f16: K = RTOL = 2^7 u (0.5), RELL2 20 u (7.8e-2). A bf16 evaluation is
#   as many of its u from float32 as an f16 one is of f16's: on hidet's CPU
#   builds at batch 1, the largest element error over rms + |exp| is 20 u
#   in bf16 against 18 u in f16 (BERT-base), 14 and 14 (GPT-2 small), 5.4
#   and 6.8 (ResNet-50), 8.3 and 5.2 (MobileNetV2); the relative L2 errors
#   4.0 and 3.9 u, 3.1 and 3.0, 2.2 and 2.2, 2.7 and 2.0. Its elements carry
#   8 times f16's rounding, so the element bound is loose beside the L2
#   one, which is what tells a wrong bf16 result there.
# PyTorch's own variants are checked against float32 eager by the same
# RELL2 (run.sh passes it to torch_baselines.py).
MODEL_RTOL_F16=6.1e-2
MODEL_K_F16=6.1e-2
MODEL_RELL2_F16=1e-2
MODEL_RTOL_BF16=0.5
MODEL_K_BF16=0.5
MODEL_RELL2_BF16=7.8e-2
MODEL_RTOL_F32=6.1e-5
MODEL_K_F32=6.1e-5
MODEL_RELL2_F32=1e-4

# model_check_args PRECISION: the hidet-run arguments of the checks of a
# library compiled in PRECISION (f16, bf16 or f32) against --expected-output
# files; fails on another precision.
model_check_args() {
  case "$1" in
  f16) echo "--rtol $MODEL_RTOL_F16 --atol 0 --atol-rms $MODEL_K_F16 --expected-rel-l2 $MODEL_RELL2_F16" ;;
  bf16) echo "--rtol $MODEL_RTOL_BF16 --atol 0 --atol-rms $MODEL_K_BF16 --expected-rel-l2 $MODEL_RELL2_BF16" ;;
  f32) echo "--rtol $MODEL_RTOL_F32 --atol 0 --atol-rms $MODEL_K_F32 --expected-rel-l2 $MODEL_RELL2_F32" ;;
  *)
    echo "model_check_args: precision f16, bf16 or f32, not '$1'" >&2
    return 1
    ;;
  esac
}

# model_rel_l2_bound PRECISION: RELL2 of PRECISION.
model_rel_l2_bound() {
  case "$1" in
  f16) echo "$MODEL_RELL2_F16" ;;
  bf16) echo "$MODEL_RELL2_BF16" ;;
  f32) echo "$MODEL_RELL2_F32" ;;
  *) return 1 ;;
  esac
}

# model_check_settings: the bounds as JSON, for the reports.
model_check_settings() {
  printf '"rtol": {"f32": %s, "f16": %s, "bf16": %s}, "atol_rms": {"f32": %s, "f16": %s, "bf16": %s}, "rel_l2_bound": {"f32": %s, "f16": %s, "bf16": %s}' \
    "$MODEL_RTOL_F32" "$MODEL_RTOL_F16" "$MODEL_RTOL_BF16" "$MODEL_K_F32" \
    "$MODEL_K_F16" "$MODEL_K_BF16" "$MODEL_RELL2_F32" "$MODEL_RELL2_F16" \
    "$MODEL_RELL2_BF16"
}
