// RUN: hidet-opt %s --hidet-set-target | FileCheck %s --check-prefix=DEFAULT
// RUN: hidet-opt %s --hidet-set-target="chip=sm_89 num-sms=58" | FileCheck %s --check-prefix=L4
// RUN: not hidet-opt %s --hidet-set-target=chip=sm_70 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not hidet-opt %s --hidet-set-target=num-sms=-2 2>&1 | FileCheck %s --check-prefix=SMS

// hidet-set-target writes the one description of the GPU on the module.
// DEFAULT: module attributes {hidet.target = #hidet.target<chip = "sm_90a">}
// L4: module attributes {hidet.target = #hidet.target<chip = "sm_89", num_sms = 58>}
// UNKNOWN: error: hidet-set-target: unknown chip 'sm_70'; known chips: sm_80, sm_86, sm_89, sm_90, sm_90a
// SMS: error: hidet-set-target: num_sms must be in [0, 1024] (0: the chip's), got -2
func.func @f() {
  return
}
