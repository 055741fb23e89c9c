#include "stimuli/driver/profile.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "common/data_dir.h"
#include "common/json_input.h"
#include "common/params.h"
#include "stimuli/benchmarks/benchmark_table.h"
#include "stimuli/driver/kernel_workload.h"
#include "stimuli/import/input_file.h"

namespace warpreg {

namespace {

using json = nlohmann::ordered_json;

/// Loop nests one profile may list.
constexpr size_t kMaxLoopNests = 64;

class Reader {
 public:
  explicit Reader(const JsonDocument& doc) : doc_(doc) {}

  [[noreturn]] void fail(const std::string& key, const std::string& message) const {
    throw WorkloadError(doc_.where(key) + message);
  }

  /// Rejects keys of `object` (at `prefix`) not in `allowed`.
  void only(const json& object, const std::string& prefix,
            std::initializer_list<const char*> allowed) const {
    for (auto it = object.begin(); it != object.end(); ++it) {
      const bool known = std::any_of(allowed.begin(), allowed.end(),
                                     [&](const char* name) { return it.key() == name; });
      if (!known) {
        std::string list;
        for (const char* name : allowed) list += std::string(list.empty() ? "" : ", ") + name;
        fail(prefix + it.key(),
             "unknown key " + quote_text(it.key()) + " (expected one of: " + list + ")");
      }
    }
  }

  const json& object(const json& parent, const std::string& prefix, const char* name,
                     bool required) {
    static const json empty = json::object();
    const std::string key = prefix + name;
    if (!parent.contains(name)) {
      if (required) fail(key, "missing");
      return empty;
    }
    const json& value = parent.at(name);
    if (!value.is_object()) fail(key, "must be an object");
    return value;
  }

  void text(const json& parent, const std::string& prefix, const char* name, std::string& out,
            bool required) {
    const std::string key = prefix + name;
    if (!parent.contains(name)) {
      if (required) fail(key, "missing");
      return;
    }
    if (!parent.at(name).is_string()) fail(key, "must be a string");
    out = parent.at(name).get<std::string>();
    if (required && out.empty()) fail(key, "must not be empty");
  }

  template <typename Int>
  void integer(const json& parent, const std::string& prefix, const char* name, Int& out,
               int64_t min, int64_t max, bool required) {
    const std::string key = prefix + name;
    if (!parent.contains(name)) {
      if (required) fail(key, "missing");
      return;
    }
    const json& value = parent.at(name);
    out = static_cast<Int>(checked_integer(value, key, min, max));
    present_.insert(key);
  }

  void real(const json& parent, const std::string& prefix, const char* name, double& out,
            double min, double max) {
    const std::string key = prefix + name;
    if (!parent.contains(name)) return;
    const json& value = parent.at(name);
    if (!value.is_number()) fail(key, "must be a number");
    const double v = value.get<double>();
    if (!(v >= min && v <= max)) {
      std::ostringstream range;
      range << v << " is outside [" << min << ", " << max << "]";
      fail(key, range.str());
    }
    out = v;
    present_.insert(key);
  }

  void integers(const json& value, const std::string& key, std::vector<uint32_t>& out, int64_t min,
                int64_t max) {
    if (!value.is_array() || value.empty()) fail(key, "must be a non-empty array of integers");
    out.clear();
    for (const json& item : value) {
      if (!item.is_number_integer()) fail(key, "must be a non-empty array of integers");
      out.push_back(static_cast<uint32_t>(checked_integer(item, key, min, max)));
    }
    present_.insert(key);
  }

  void mark(const std::string& key) { present_.insert(key); }

  /// An integer in [min, max]; the message shows the value as written (2^64 - 1 is not -1).
  int64_t checked_integer(const json& value, const std::string& key, int64_t min, int64_t max) {
    if (!value.is_number_integer()) fail(key, "must be an integer, not " + quote_json(value));
    const bool in_range =
        value.is_number_unsigned()
            ? value.get<uint64_t>() <= static_cast<uint64_t>(std::max<int64_t>(max, 0)) &&
                  static_cast<int64_t>(value.get<uint64_t>()) >= min
            : value.get<int64_t>() >= min && value.get<int64_t>() <= max;
    if (!in_range)
      fail(key, quote_json(value) + " is outside [" + std::to_string(min) + ", " +
                    std::to_string(max) + "]");
    return value.get<int64_t>();
  }
  const std::set<std::string>& present() const { return present_; }

 private:
  const JsonDocument& doc_;
  std::set<std::string> present_;
};

}  // namespace

Profile parse_profile(const std::string& text, const std::string& file) {
  const JsonDocument doc = [&] {
    try {
      return JsonDocument::parse(text, file);
    } catch (const JsonInputError& e) {
      throw WorkloadError(e.what());
    }
  }();
  const json& root = doc.root();
  Reader r(doc);
  Profile p;
  p.file = file;
  if (!root.is_object()) throw WorkloadError(file + ":1: a profile must be a JSON object");
  r.only(root, "",
         {"name", "description", "source", "paper", "assumed", "measured", "measured_from",
          "launch", "kernel", "values"});
  r.text(root, "", "name", p.name, true);
  r.text(root, "", "description", p.description, false);
  r.text(root, "", "source", p.source, true);
  r.text(root, "", "measured_from", p.measured_from, false);

  const json& launch = r.object(root, "", "launch", true);
  r.only(launch, "launch.", {"ctas", "threads_per_cta", "concurrent_ctas", "shared_mem_per_cta"});
  r.integer(launch, "launch.", "ctas", p.ctas, 1, 1 << 24, true);
  r.integer(launch, "launch.", "threads_per_cta", p.threads_per_cta, 1, 1024, true);
  r.integer(launch, "launch.", "concurrent_ctas", p.concurrent_ctas, 1, 32, false);
  r.integer(launch, "launch.", "shared_mem_per_cta", p.shared_mem_per_cta, 0, 1 << 20, false);

  const json& kernel = r.object(root, "", "kernel", true);
  r.only(kernel, "kernel.",
         {"regs_per_thread", "block_insts", "loops", "trip_spread", "if_regions", "divergence",
          "memory_fraction", "store_share", "sfu_fraction", "barriers", "liveness", "long_lived"});
  r.integer(kernel, "kernel.", "regs_per_thread", p.regs_per_thread, 2, 63, true);
  r.integer(kernel, "kernel.", "block_insts", p.block_insts, 1, 1000, false);
  if (kernel.contains("loops")) {
    const json& loops = kernel.at("loops");
    if (!loops.is_array()) r.fail("kernel.loops", "must be an array of arrays of trip counts");
    p.loops.clear();
    for (const json& nest : loops) {
      std::vector<uint32_t> trips;
      r.integers(nest, "kernel.loops", trips, 1, 1000000);
      if (trips.size() > 8) r.fail("kernel.loops", "a loop nest may be at most 8 deep");
      if (p.loops.size() == kMaxLoopNests)
        r.fail("kernel.loops", "at most " + std::to_string(kMaxLoopNests) + " loop nests");
      p.loops.push_back(trips);
    }
    r.mark("kernel.loops");
  }
  r.real(kernel, "kernel.", "trip_spread", p.trip_spread, 0, 100);
  r.integer(kernel, "kernel.", "if_regions", p.if_regions, 0, 1000, false);
  r.real(kernel, "kernel.", "divergence", p.divergence, 0, 1);
  r.real(kernel, "kernel.", "memory_fraction", p.memory_fraction, 0, 1);
  r.real(kernel, "kernel.", "store_share", p.store_share, 0, 1);
  r.real(kernel, "kernel.", "sfu_fraction", p.sfu_fraction, 0, 1);
  r.integer(kernel, "kernel.", "barriers", p.barriers, 0, 1000, false);
  r.real(kernel, "kernel.", "long_lived", p.long_lived, 0, 1);
  std::string liveness = "uniform";
  r.text(kernel, "kernel.", "liveness", liveness, false);
  if (kernel.contains("liveness")) r.mark("kernel.liveness");
  if (liveness == "corpus")
    p.liveness = Profile::Liveness::Corpus;
  else if (liveness != "uniform")
    r.fail("kernel.liveness", "must be \"uniform\" or \"corpus\", not " + quote_text(liveness));
  if (kernel.contains("long_lived") && p.liveness != Profile::Liveness::Corpus)
    r.fail("kernel.long_lived", "needs \"liveness\": \"corpus\"");
  if (p.memory_fraction + p.sfu_fraction > 1)
    r.fail("kernel.sfu_fraction", "memory_fraction + sfu_fraction exceeds 1 (the rest is ALU)");

  const json& values = r.object(root, "", "values", false);
  r.only(values, "values.",
         {"uniform", "affine", "narrow", "random", "affine_strides", "narrow_range"});
  r.real(values, "values.", "uniform", p.values.uniform, 0, 1);
  r.real(values, "values.", "affine", p.values.affine, 0, 1);
  r.real(values, "values.", "narrow", p.values.narrow, 0, 1);
  r.real(values, "values.", "random", p.values.random, 0, 1);
  if (values.contains("affine_strides"))
    r.integers(values.at("affine_strides"), "values.affine_strides", p.values.affine_strides, 0,
               0xffffffffll);
  r.integer(values, "values.", "narrow_range", p.values.narrow_range, 1, 0xffffffffll, false);
  try {
    p.values.validate("values");
  } catch (const WorkloadError& e) {
    r.fail("values", std::string(e.what()).substr(std::string("values: ").size()));
  }

  // Every field given must say whether it is the paper's, measured on real code or an
  // assumption.
  auto names = [&](const char* key, std::vector<std::string>& out, bool required) {
    if (!root.contains(key)) {
      if (!required) return;
      r.fail(key, "missing (list the dotted fields it covers)");
    }
    const json& list = root.at(key);
    if (!list.is_array()) r.fail(key, "must be an array of dotted field names");
    for (const json& item : list) {
      if (!item.is_string()) r.fail(key, "must be an array of dotted field names");
      const std::string field = item.get<std::string>();
      if (!r.present().count(field))
        r.fail(key, quote_text(field) + " is not a field of this profile");
      out.push_back(field);
    }
  };
  names("paper", p.paper_fields, true);
  names("assumed", p.assumed_fields, true);
  names("measured", p.measured_fields, false);
  if (!p.measured_fields.empty() && p.measured_from.empty())
    r.fail("measured_from", "missing: name the real kernels the \"measured\" fields come from");
  for (const std::string& field : r.present()) {
    const int listed =
        static_cast<int>(std::count(p.paper_fields.begin(), p.paper_fields.end(), field) +
                         std::count(p.assumed_fields.begin(), p.assumed_fields.end(), field) +
                         std::count(p.measured_fields.begin(), p.measured_fields.end(), field));
    if (listed != 1)
      r.fail(field, listed == 0
                        ? "neither in \"paper\", \"measured\" nor in \"assumed\""
                        : "listed more than once in \"paper\", \"measured\" and \"assumed\"");
  }
  return p;
}

Profile read_profile(const std::string& path) {
  return parse_profile(read_input(path, "profile", input_limits::kMaxProfileBytes), path);
}

std::string shipped_profile_dir() { return data_path("stimuli/profiles"); }

std::string shipped_profile_path(const std::string& name) {
  return shipped_profile_dir() + "/" + name + ".json";
}

std::vector<std::string> shipped_profiles() {
  std::vector<std::string> names;
  const std::filesystem::path dir = shipped_profile_dir();
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
    if (entry.path().extension() == ".json") names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

namespace {

/// Builds the SASS of a generated kernel block by block.
class KernelGenerator {
 public:
  KernelGenerator(const Profile& p, uint64_t seed, double trip_scale)
      : p_(p), rng_(stream_seed(seed ^ 0x70726f66696c65ull, ~0u, ~0u)), trip_scale_(trip_scale) {}

  Kernel build(std::map<uint32_t, uint32_t>& trip_counts) {
    // Barriers go where all warps of a CTA pass equally often: converged
    // top-level code and the outermost loop headers.
    const size_t top_places = 1 + p_.loops.size() * 2;
    barrier_at_.assign(top_places, 0);
    for (uint32_t b = 0; b < p_.barriers; ++b) ++barrier_at_[b % top_places];
    // If-regions go into the innermost loop bodies, or top-level code without loops.
    ifs_per_nest_.assign(std::max<size_t>(p_.loops.size(), 1), 0);
    for (uint32_t i = 0; i < p_.if_regions; ++i) ++ifs_per_nest_[i % ifs_per_nest_.size()];

    // Code is always appended to the last block; a region opens new blocks after it.
    new_block();
    add("S2R R0, SR_TID.X");
    named_.assign(p_.regs_per_thread, false);
    named_[0] = true;
    if (corpus_) {
      // R0 and the other long-lived registers are set on entry (the thread index and
      // the kernel's parameters); temporaries are written when the code needs them.
      // At least R0 and one more, which takes the writes that close a burst.
      long_lived_ = std::clamp<uint32_t>(
          static_cast<uint32_t>(std::lround(p_.long_lived * p_.regs_per_thread)), 2,
          p_.regs_per_thread);
      next_temporary_ = long_lived_;
    } else {
      long_lived_ = p_.regs_per_thread;  // uniform: every register is set on entry
    }
    for (uint32_t r = 1; r < long_lived_; ++r) {
      add(parameter_load(r));
      written(static_cast<uint16_t>(r));
    }
    size_t place = 0;
    if (corpus_ && p_.loops.empty()) pressure_burst();
    chunk(p_.block_insts);
    barriers(place++);
    if (p_.loops.empty()) {
      for (uint32_t i = 0; i < ifs_per_nest_[0]; ++i) {
        if_region();
        chunk(p_.block_insts);
      }
    }
    for (size_t n = 0; n < p_.loops.size(); ++n) {
      nest_ = n;
      loop(p_.loops[n], 0, place++, trip_counts);
      chunk(p_.block_insts);
      barriers(place++);
    }
    add("EXIT");
    // The kernel names R0..R(n-1), as the launch allocates them: a temporary the code
    // never reached is still loaded on entry (a value nobody reads).
    std::vector<std::string>& entry = blocks_.front().lines;
    size_t at = long_lived_;
    for (uint32_t r = long_lived_; r < p_.regs_per_thread; ++r)
      if (!named_[r])
        entry.insert(entry.begin() + static_cast<std::ptrdiff_t>(at++), parameter_load(r));
    return assemble();
  }

 private:
  struct Block {
    std::vector<std::string> lines;
  };

  uint32_t new_block() {
    blocks_.emplace_back();
    return static_cast<uint32_t>(blocks_.size() - 1);
  }
  uint32_t current() const { return static_cast<uint32_t>(blocks_.size() - 1); }
  void add(const std::string& line) {
    if (++lines_ > input_limits::kMaxStaticInstructions)
      throw WorkloadError(p_.file + ": kernel: the generated kernel passes " +
                          std::to_string(input_limits::kMaxStaticInstructions) +
                          " instructions (the input limit); give fewer loops, if_regions or "
                          "block_insts");
    blocks_.back().lines.push_back(line);
  }
  void edge(uint32_t from, uint32_t to) { edges_.emplace_back(from, to); }
  static std::string label(uint32_t block) { return ".L_" + std::to_string(block); }

  static std::string parameter_load(uint32_t r) {
    std::ostringstream line;
    line << "MOV R" << r << ", c[0x0][0x" << std::hex << (0x20 + 4 * r) << "]";
    return line.str();
  }
  void written(uint16_t reg) {
    named_[reg] = true;
    recent_[recent_next_] = reg;
    recent_next_ = (recent_next_ + 1) % recent_.size();
  }
  std::string reg(uint32_t r) const { return "R" + std::to_string(r); }
  uint32_t dst() {
    uint32_t r = 0;
    if (!corpus_) {
      r = 1 + rng_.below(p_.regs_per_thread - 1);  // R0 keeps the thread index
    } else if (long_lived_ < p_.regs_per_thread && !draining_ &&
               (burst_ || unread_.size() < p_.regs_per_thread - long_lived_) &&
               (burst_ || !rng_.chance(kLongLivedWrites))) {
      // Mostly a temporary whose value has been read, in turn...
      r = free_temporary();
      unread_.push_back(static_cast<uint16_t>(r));
    } else {
      // ... else a long-lived register: an address or counter update, an accumulator,
      // the result a drain reduces into. R0 keeps the thread index.
      r = 1 + rng_.below(long_lived_ - 1);
    }
    written(static_cast<uint16_t>(r));
    return r;
  }
  /// The next temporary in turn whose value was read; when every one still waits for
  /// its read, the oldest (its value dies unread).
  uint32_t free_temporary() {
    const uint32_t temporaries = p_.regs_per_thread - long_lived_;
    for (uint32_t i = 0; i < temporaries; ++i) {
      const uint32_t r = long_lived_ + (next_temporary_ - long_lived_ + i) % temporaries;
      if (std::find(unread_.begin(), unread_.end(), r) == unread_.end()) {
        next_temporary_ = r + 1 < p_.regs_per_thread ? r + 1 : long_lived_;
        return r;
      }
    }
    const uint32_t oldest = unread_.front();
    unread_.erase(unread_.begin());
    return oldest;
  }
  uint32_t src() {
    if (!corpus_) {
      // Mostly a recently written register, as dependent code reads them.
      if (rng_.chance(0.7)) return recent_[rng_.below(static_cast<uint32_t>(recent_.size()))];
      return rng_.below(p_.regs_per_thread);
    }
    // Code reads what it just computed: mostly a value not read yet, sometimes one of
    // the last writes again, else a long-lived register. A burst reads long-lived
    // registers only, so its values pile up (the kernel's peak register pressure); a
    // drain, or too many values waiting, reads waiting values first.
    const double draw = burst_                                           ? 1.0
                        : (draining_ || unread_.size() > recent_.size()) ? 0.0
                                                                         : rng_.uniform();
    if (draw < kUnreadReads && !unread_.empty()) {
      const size_t i = rng_.chance(kNewestUnread)
                           ? unread_.size() - 1
                           : rng_.below(static_cast<uint32_t>(unread_.size()));
      const uint16_t r = unread_[i];
      unread_.erase(unread_.begin() + static_cast<std::ptrdiff_t>(i));
      return r;
    }
    if (draw < kUnreadReads + kRecentReads)
      return recent_[rng_.below(static_cast<uint32_t>(recent_.size()))];
    return rng_.below(long_lived_);
  }
  /// Every temporary written before any is read: loads and address arithmetic before
  /// a loop nest, as real kernels reach all their registers at some point.
  void pressure_burst() {
    burst_ = true;
    for (uint32_t i = long_lived_; i < p_.regs_per_thread; ++i) chunk(1, /*stores=*/false);
    burst_ = false;
    drain();
  }
  /// Reads every value not read yet into long-lived registers (a tile loaded and
  /// reduced, an if-arm's result kept in a variable).
  void drain() {
    draining_ = true;
    while (!unread_.empty()) chunk(1, /*stores=*/false);
    draining_ = false;
  }
  /// Generator state saved around an if-arm, so the other arm does not read what the
  /// first one wrote (its values are not written on that path).
  struct Flow {
    std::vector<uint16_t> unread;
    std::array<uint16_t, 6> recent;
  };
  Flow flow() const { return {unread_, recent_}; }
  void restore(const Flow& f) {
    unread_ = f.unread;
    recent_ = f.recent;
  }
  /// Code after a join or at a loop header reads long-lived registers only: a temporary
  /// written on one path (or in the previous iteration) is not read where the paths meet,
  /// so temporaries do not live across arms or around back edges.
  void forget_temporaries() {
    unread_.clear();
    for (size_t i = 0; i < recent_.size(); ++i) recent_[i] = static_cast<uint16_t>(i % long_lived_);
  }

  void barriers(size_t place) {
    for (uint32_t i = 0; place < barrier_at_.size() && i < barrier_at_[place]; ++i)
      add("BAR.SYNC 0x0");
  }

  void chunk(uint32_t count, bool stores = true) {
    for (uint32_t i = 0; i < count; ++i) {
      const double draw = rng_.uniform();
      // Sources first: a destination may reuse a source register, never precede it.
      if (stores && draw < p_.memory_fraction * p_.store_share) {
        const uint32_t a = src(), d = src();
        add("ST [" + reg(a) + "+0x4], " + reg(d));
      } else if (draw < p_.memory_fraction) {
        const uint32_t a = src();
        add("LD " + reg(dst()) + ", [" + reg(a) + "+0x4]");
      } else if (draw < p_.memory_fraction + p_.sfu_fraction) {
        const uint32_t a = src();
        add("MUFU.RCP " + reg(dst()) + ", " + reg(a));
      } else {
        const uint32_t a = src(), b = src(), c = src();
        switch (rng_.below(3)) {
          case 0:
            add("IADD " + reg(dst()) + ", " + reg(a) + ", " + reg(b));
            break;
          case 1:
            add("IMAD " + reg(dst()) + ", " + reg(a) + ", " + reg(b) + ", " + reg(c));
            break;
          default:
            add("FFMA " + reg(dst()) + ", " + reg(a) + ", " + reg(b) + ", " + reg(c));
            break;
        }
      }
    }
  }

  /// cur -> {then, else} -> join; returns join.
  uint32_t if_region() {
    const uint32_t head = current();
    add("ISETP.GT.AND P0, PT, " + reg(src()) + ", " + reg(src()) + ", PT");
    const uint32_t then_block = head + 1;
    const size_t branch_line = blocks_[head].lines.size();
    add("");  // the branch, once the else block's label is known
    new_block();
    const Flow before = flow();
    chunk(p_.block_insts);
    if (corpus_) drain();
    const uint32_t then_end = current();
    const size_t jump_line = blocks_[then_end].lines.size();
    add("");
    const uint32_t else_block = new_block();
    if (corpus_) restore(before);
    chunk(p_.block_insts);
    if (corpus_) drain();
    const uint32_t else_end = current();
    const uint32_t join = new_block();
    if (corpus_) forget_temporaries();
    blocks_[head].lines[branch_line] = "@P0 BRA `(" + label(else_block) + ")";
    blocks_[then_end].lines[jump_line] = "BRA `(" + label(join) + ")";
    edge(head, then_block);
    edge(head, else_block);
    edge(then_end, join);
    edge(else_end, join);
    return join;
  }

  /// A loop nest entered from the current block; returns the block after it.
  uint32_t loop(const std::vector<uint32_t>& trips, size_t depth, size_t place,
                std::map<uint32_t, uint32_t>& trip_counts) {
    if (corpus_ && depth == 0) pressure_burst();
    const uint32_t pre = current();
    const uint32_t header = new_block();
    edge(pre, header);
    const uint32_t iterations =
        std::max<uint32_t>(1, static_cast<uint32_t>(std::lround(trips[depth] * trip_scale_)));
    trip_counts[header] = iterations - 1;  // a bottom-tested loop: back edges = iterations - 1
    if (depth == 0) barriers(place);
    if (corpus_) forget_temporaries();
    chunk(p_.block_insts);
    if (depth + 1 < trips.size()) {
      loop(trips, depth + 1, place, trip_counts);
      chunk(p_.block_insts);
    } else {
      for (uint32_t i = 0; i < ifs_per_nest_[nest_]; ++i) {
        if_region();
        chunk(std::max<uint32_t>(1, p_.block_insts / 2));
      }
    }
    const uint32_t latch = current();
    add("ISETP.LT.AND P1, PT, " + reg(src()) + ", " + reg(src()) + ", PT");
    add("@P1 BRA `(" + label(header) + ")");
    edge(latch, header);
    const uint32_t after = new_block();
    edge(latch, after);
    return after;
  }

  Kernel assemble() const {
    Kernel k;
    k.name = p_.name;
    uint64_t pc = 0;
    for (uint32_t i = 0; i < blocks_.size(); ++i) {
      BasicBlock b;
      b.id = i;
      b.name = label(i);
      for (const std::string& line : blocks_[i].lines) {
        b.insts.push_back(parse_sass(line, pc));
        pc += 8;
      }
      k.blocks.push_back(std::move(b));
    }
    for (const auto& [from, to] : edges_) k.add_edge(from, to);
    return k;
  }

  const Profile& p_;
  Rng rng_;
  double trip_scale_;
  std::vector<Block> blocks_;
  std::vector<std::pair<uint32_t, uint32_t>> edges_;
  /// Sources that read one of the last writes, and writes that go to a long-lived
  /// register: with the ring's length they set live ranges (calibrated on the corpus).
  static constexpr double kUnreadReads = 0.7;
  static constexpr double kNewestUnread = 0.5;
  static constexpr double kRecentReads = 0.1;
  static constexpr double kLongLivedWrites = 0.08;
  std::array<uint16_t, 6> recent_{};
  size_t recent_next_ = 0;
  const bool corpus_ = p_.liveness == Profile::Liveness::Corpus;
  uint32_t long_lived_ = 1;
  uint32_t next_temporary_ = 1;
  std::vector<uint16_t> unread_;  ///< temporaries written and not read yet, oldest first
  bool burst_ = false;
  bool draining_ = false;
  std::vector<bool> named_;
  std::vector<uint32_t> barrier_at_;
  std::vector<uint32_t> ifs_per_nest_;
  size_t nest_ = 0;
  uint64_t lines_ = 0;
};

}  // namespace

Kernel generate_profile_kernel(const Profile& profile, uint64_t seed,
                               std::map<uint32_t, uint32_t>& trip_counts, double trip_scale) {
  return KernelGenerator(profile, seed, trip_scale).build(trip_counts);
}

ProfileKernel build_profile_kernel(const Profile& profile, const Params& params) {
  KernelRunConfig config;
  config.seed = static_cast<uint64_t>(params.integer("sim.seed"));
  const int64_t ctas = params.integer("profile.ctas");
  config.shape.name = profile.name;
  config.shape.ctas = ctas > 0 ? static_cast<uint32_t>(ctas) : profile.ctas;
  config.shape.threads_per_cta = profile.threads_per_cta;
  config.shape.regs_per_thread = profile.regs_per_thread;
  if (profile.shared_mem_per_cta >= 0) {
    config.shape.shared_mem_per_cta = static_cast<uint32_t>(profile.shared_mem_per_cta);
  } else if (profile.concurrent_ctas > 0) {
    // The paper's concurrent CTAs per SM, enforced through shared memory: each CTA
    // asks for an equal share of the SM's, so no more than that many fit.
    const int64_t sm_shared = params.integer("sm.shared_mem_bytes");
    config.shape.shared_mem_per_cta =
        static_cast<uint32_t>(sm_shared / profile.concurrent_ctas / 128 * 128);
  }
  config.divergence = profile.divergence;
  config.trip_spread = profile.trip_spread;
  config.values = profile.values;
  config.max_insts_per_warp = static_cast<uint64_t>(params.integer("kernel.max_insts_per_warp"));
  config.allow_capped = params.flag("kernel.allow_capped");
  config.address_mix = resolve_address_mix(params.text("kernel.address_mix"), profile.name);
  Kernel kernel = generate_profile_kernel(profile, config.seed, config.trip_counts,
                                          params.real("profile.trip_scale"));
  config.default_trip_count = 0;
  return {std::move(kernel), std::move(config)};
}

std::unique_ptr<Workload> make_profile_workload(const Profile& profile, const Params& params) {
  ProfileKernel built = build_profile_kernel(profile, params);
  return std::make_unique<KernelWorkload>(std::move(built.kernel), std::move(built.config),
                                          "profile " + profile.file);
}

}  // namespace warpreg
