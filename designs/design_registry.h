#pragma once
// Designs register themselves: a name, the parameters they bring, the hardware they
// take over, and how they elaborate their blocks onto a machine. The SM platform
// builds every design a preset or --design names, in path order, after refusing any
// pair that cannot share the hardware. Nothing above this layer keeps a list per
// design: a design lives in designs/NAME/ with a register function the build finds
// (docs/composition.md).
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/params.h"
#include "modules/interfaces/design_context.h"
#include "modules/interfaces/operand_stage.h"
#include "modules/regfile/regfile_technology.h"

namespace warpreg {

/// Where a stage sits on the operand path, from the operand collectors towards the
/// banks. Stages of one slot keep the order the designs were named in.
enum class PathSlot : uint8_t {
  Translation = 10,  ///< architected -> physical register names (rfv, regmutex)
  Codec = 20,        ///< register contents change form on the way (wc)
  Cache = 30,        ///< a register-file cache in front of the main register file (ltrf)
  Power = 40,        ///< power control that dates bank accesses from their completion (tric,
                     ///< coma)
};
const char* to_string(PathSlot slot);

/// Where a stage goes on the operand path: in a slot (what the shipped designs use), or
/// right before or after another stage named by its module name ("rfv", "regmutex", "wc",
/// "ltrf", "tric", "coma", a user stage's own), where "after crossbar" is the first place
/// and "before regfile" the last (docs/composition.md). Stages placed after one name keep
/// the order they were added in, as do stages placed before one name.
class Placement {
 public:
  Placement(PathSlot slot) : slot_(slot) {}  // NOLINT(google-explicit-constructor): a slot places
  static Placement before(std::string stage) { return Placement(Where::Before, std::move(stage)); }
  static Placement after(std::string stage) { return Placement(Where::After, std::move(stage)); }
  /// "before NAME", "after NAME" or a slot name ("translation", "codec", "cache", "power").
  /// Throws ConfigError quoting `option` (the parameter or setting the text came from).
  static Placement parse(const std::string& text, const std::string& option);

  bool in_slot() const { return where_ == Where::Slot; }
  PathSlot slot() const { return slot_; }
  bool is_before() const { return where_ == Where::Before; }
  /// The stage named by before()/after().
  const std::string& anchor() const { return anchor_; }
  /// "power", "before wc", "after crossbar".
  std::string text() const;

 private:
  enum class Where : uint8_t { Slot, Before, After };
  Placement(Where where, std::string anchor) : where_(where), anchor_(std::move(anchor)) {}
  Where where_ = Where::Slot;
  PathSlot slot_ = PathSlot::Power;
  std::string anchor_;
};

/// What a design's build function fills: its operand-path stages with their placements.
/// A stage that is also an IssueHook is registered with the SM's issue stage, one that
/// is also a ReportingBlock appears in stats.json and describe.
class DesignAssembly {
 public:
  struct Placed {
    std::unique_ptr<OperandStage> stage;
    Placement where;
    std::string design;
  };

  DesignAssembly(const DesignContext& context, std::string design)
      : context_(context), design_(std::move(design)) {}
  const DesignContext& context() const { return context_; }

  template <class Stage, class... Args>
  Stage& add_stage(Placement where, Args&&... args) {
    auto stage = std::make_unique<Stage>(std::forward<Args>(args)...);
    Stage& ref = *stage;
    placed_.push_back({std::move(stage), std::move(where), design_});
    return ref;
  }
  void add_stage(std::unique_ptr<OperandStage> stage, Placement where) {
    placed_.push_back({std::move(stage), std::move(where), design_});
  }
  /// The design being built; the next design's stages follow.
  void next_design(std::string design) { design_ = std::move(design); }
  std::vector<Placed>& placed() { return placed_; }

 private:
  const DesignContext& context_;
  std::string design_;
  std::vector<Placed> placed_;
};

/// The stages between the crossbar and the register file in path order: stages in slots
/// by slot (in the order they were added within one), then every stage placed before or
/// after a name, in the order added (one may name a stage so placed). Throws ConfigError
/// naming the stage, its design and the path when a name is not on it.
std::vector<DesignAssembly::Placed> order_operand_path(std::vector<DesignAssembly::Placed> placed);

struct DesignSpec {
  std::string name;   ///< what --design and a preset's "designs" name
  std::string title;  ///< "GPU register file virtualization"
  std::string paper;  ///< the seed it reproduces
  /// Hardware the design takes over and no other design may take as well, e.g.
  /// "register names" (the architected -> physical mapping): two designs claiming the
  /// same thing are refused before elaboration, naming both and the claim.
  std::vector<std::string> claims;
  /// Its parameters, listed in the catalogue whether or not the design runs.
  std::function<void(std::vector<ParamSpec>&)> declare_params;
  /// Elaborates its blocks; throws ConfigError naming the option on a bad configuration.
  std::function<void(DesignAssembly&)> build;
  /// `warpreg vectors` generators of its blocks.
  std::vector<std::string> vectors;
  /// For a design that puts the SM's register file behind another level of its own (LTRF's
  /// main register file): the register file's technology from the parameters, which the
  /// platform builds the register file with before elaborating any design. Empty: rf.*.
  std::function<RegFileTechnology(const Params&)> regfile_technology{};
};

class DesignRegistry {
 public:
  /// The designs of designs/ (the build lists them) and any registered since.
  static DesignRegistry& instance();

  /// Throws std::logic_error when the name is taken.
  void add(DesignSpec spec);
  const DesignSpec* find(const std::string& name) const;
  /// Every registered design, by name.
  std::vector<const DesignSpec*> designs() const;
  /// The designs `names` asks for, in that order. Throws ConfigError for an unknown or
  /// repeated name, and for the first pair that cannot share the hardware, in one line
  /// naming both designs and what they both claim.
  std::vector<const DesignSpec*> resolve(const std::vector<std::string>& names) const;

 private:
  std::vector<DesignSpec> designs_;
};

/// The register file's technology the designs state (the identity when none does). Throws
/// ConfigError naming both when two designs state one.
RegFileTechnology regfile_technology_of(const std::vector<const DesignSpec*>& designs,
                                        const Params& params);

/// Registers a design from a program's or test bench's own source file (at static
/// initialisation): `static const DesignRegistrar toy{DesignSpec{...}};`
struct DesignRegistrar {
  explicit DesignRegistrar(DesignSpec spec) { DesignRegistry::instance().add(std::move(spec)); }
};

}  // namespace warpreg
