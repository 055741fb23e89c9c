#pragma once
// The compiler passes that produce each design's metadata (modules/interfaces/
// kernel_metadata.h), by kind, and the MetadataSource that runs them on a kernel's
// static code, once each. A design's passes live in designs/NAME/compiler/ and are
// registered by its register function (the build lists the design folders).
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <typeinfo>
#include <vector>

#include "modules/interfaces/kernel_metadata.h"

namespace warpreg {

struct Kernel;

struct CompilerPass {
  std::string kind;  ///< "rfv.program", "regmutex.plan" ...
  std::string description;
  const std::type_info* type = nullptr;  ///< what run() produces
  std::function<std::shared_ptr<const void>(const Kernel&, const PassContext&)> run;
};

class PassRegistry {
 public:
  /// The passes of every design the build lists, and any added since.
  static PassRegistry& instance();

  /// Throws std::logic_error when `pass.kind` is taken.
  void add(CompilerPass pass);
  /// Registers `run`, a function (const Kernel&, const PassContext&) -> T.
  template <class T, class Run>
  void add(std::string kind, std::string description, Run run) {
    add(CompilerPass{std::move(kind), std::move(description), &typeid(T),
                     [run](const Kernel& kernel, const PassContext& context) {
                       return std::shared_ptr<const void>(
                           std::make_shared<const T>(run(kernel, context)));
                     }});
  }
  const CompilerPass* find(const std::string& kind) const;
  std::vector<const CompilerPass*> passes() const;

 private:
  std::map<std::string, CompilerPass> passes_;
};

/// Runs the registered passes on one kernel's static code, each at most once.
class KernelMetadataSource final : public MetadataSource {
 public:
  /// `kernel` may be nullptr (no static code); it must outlive the source.
  explicit KernelMetadataSource(const Kernel* kernel) : kernel_(kernel) {}
  bool has_static_code() const override { return kernel_ != nullptr; }

 protected:
  std::shared_ptr<const void> produce(const std::string& kind, const std::type_info& type,
                                      const PassContext& context) override;

 private:
  const Kernel* kernel_;
  std::map<std::string, std::shared_ptr<const void>> done_;
};

}  // namespace warpreg
