//===- CatalystDialect.h - the catalyst subset ------------------*- C++ -*-===//
#ifndef EXECUTORSTUDIO_CATALYST_IR_CATALYSTDIALECT_H
#define EXECUTORSTUDIO_CATALYST_IR_CATALYSTDIALECT_H

#include "mlir/IR/Dialect.h"

#include "ExecutorStudio/Catalyst/IR/CatalystDialect.h.inc"

#endif // EXECUTORSTUDIO_CATALYST_IR_CATALYSTDIALECT_H
