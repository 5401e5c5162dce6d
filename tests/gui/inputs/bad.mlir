// Does not parse: %nope is not defined. executor-studio shows the
// diagnostic and the source at its line.
func.func @f() -> i32 {
  %0 = arith.constant 1 : i32
  %1 = arith.addi %0, %nope : i32
  return %1 : i32
}
