//===- ValueParser.h - an llvm::cl enum flag that names its values -*- C++ -*-//
//
// llvm::cl's parser for a flag with cl::values answers a wrong value with
// "Cannot find option named 'bogus'!". This one says what the flag takes:
// "for the --emit option: 'bogus' is not one of its values; give mlir,
// llvm, obj or exe". Use: cl::opt<T, false, ValueParser<T>>.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORSTUDIO_SUPPORT_VALUEPARSER_H
#define EXECUTORSTUDIO_SUPPORT_VALUEPARSER_H

#include "llvm/Support/CommandLine.h"

#include <string>

namespace executor_studio {

template <class T> class ValueParser : public llvm::cl::parser<T> {
public:
  using llvm::cl::parser<T>::parser;

  bool parse(llvm::cl::Option &option, llvm::StringRef argName,
             llvm::StringRef arg, T &value) {
    for (const auto &known : this->Values)
      if (known.Name == arg) {
        value = known.V.getValue();
        return false;
      }
    std::string names;
    for (size_t i = 0, e = this->Values.size(); i != e; ++i) {
      if (i)
        names += i + 1 == e ? " or " : ", ";
      names += this->Values[i].Name.str();
    }
    return option.error("'" + arg + "' is not one of its values; give " +
                        names);
  }
};

} // namespace executor_studio

#endif // EXECUTORSTUDIO_SUPPORT_VALUEPARSER_H
