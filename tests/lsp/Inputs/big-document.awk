# F functions of 100 lines each (about 3.9 KB per function), on executor
# dialect text (so the server would run the pipeline on it).
BEGIN {
  print "// uses executor.launch"
  print "module {"
  for (f = 0; f < F; ++f) {
    printf "  func.func @f%d(%%arg0: i64) -> i64 {\n", f
    printf "    %%v0 = arith.addi %%arg0, %%arg0 : i64\n"
    for (i = 1; i < 97; ++i)
      printf "    %%v%d = arith.muli %%v%d, %%arg0 : i64\n", i, i - 1
    print "    return %v96 : i64"
    print "  }"
  }
  print "}"
}
