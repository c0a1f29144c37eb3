//! The WebAssembly module of the npm package: raw `extern "C"` exports called from `js/src/`.

mod bao;
