module @host {
  func.func @main() -> i32 {
    %shots = arith.constant 1000 : i64
    %count = catalyst.runtime_call "sample"(%shots) {c_params = ["i64"], dispatch = ""} : (i64) -> i32
    return %count : i32
  }
}
