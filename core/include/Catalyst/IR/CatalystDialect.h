//===- CatalystDialect.h - the catalyst subset ------------------*- C++ -*-===//
#ifndef CATALYST_IR_CATALYSTDIALECT_H
#define CATALYST_IR_CATALYSTDIALECT_H

#include "mlir/IR/Dialect.h"

#include "Catalyst/IR/CatalystDialect.h.inc"

#endif // CATALYST_IR_CATALYSTDIALECT_H
