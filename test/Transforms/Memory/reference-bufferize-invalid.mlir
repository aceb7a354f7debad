// RUN: hidet-opt %s -allow-unregistered-dialect --hidet-reference-bufferize -verify-diagnostics

// An op that one-shot bufferization cannot take fails the pass: its error
// names the op, and the failed step is reported at the module.
// expected-error @below {{hidet-reference-bufferize: bufferization failed}}
module {
  func.func @opaque(%a: tensor<4xf32>) -> tensor<4xf32> {
    // expected-error @below {{op was not bufferized}}
    %r = "test.opaque"(%a) : (tensor<4xf32>) -> tensor<4xf32>
    return %r : tensor<4xf32>
  }
}
