#include "stimuli/import/cuobjdump.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "common/json_input.h"
#include "modules/interfaces/workload.h"
#include "stimuli/import/input_file.h"
#include "stimuli/kernel/sass_grammar.h"

namespace warpreg {

namespace {

/// Nested calls an inlined subroutine may make (deeper means recursion).
constexpr size_t kMaxCallDepth = 16;
/// Inlined copies of a subroutine get PCs in windows of this alignment above the listing.
constexpr uint64_t kCopyAlignment = 0x1000;

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

bool is_hex(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isxdigit(static_cast<unsigned char>(c)) != 0;
  });
}

std::string hex(uint64_t value) {
  char buffer[24];
  std::snprintf(buffer, sizeof buffer, "0x%llx", static_cast<unsigned long long>(value));
  return buffer;
}

/// "code for sm_20" -> "sm_20"; "" if the line is not one.
std::string code_for_arch(std::string_view line) {
  line = trim(line);
  if (!starts_with(line, "code for ")) return "";
  const std::string_view arch = trim(line.substr(9));
  if (arch.size() < 4 || !starts_with(arch, "sm_") ||
      !std::all_of(arch.begin() + 3, arch.end(), [](char c) { return std::isdigit(c) != 0; }))
    return "";
  return std::string(arch);
}

bool is_tesla(const std::string& arch) { return arch.size() == 5 && arch[3] == '1'; }

/// One instruction line as listed.
struct RawInst {
  uint64_t pc = 0;
  unsigned bytes = 8;
  std::string encoding;  ///< hex digits, "" in the newer style without inline encodings
  std::string text;
  uint64_t line = 0;
  size_t column = 1;  ///< 1-based column of `text` in its line
};

/// How an instruction moves control, decided once per listed instruction.
enum class Flow : uint8_t { Next, Branch, Call, Return, Exit, Break, Continue, Sync, End };

struct Decoded {
  StaticInst inst;
  Flow flow = Flow::Next;
  size_t target = 0;  ///< Branch/Call/Break/Continue/Sync: the instruction index
  bool guarded = false;
};

struct PendingFunction {
  std::string arch;
  std::string name;
  uint64_t line = 0;
  std::vector<RawInst> insts;
};

class ListingReader {
 public:
  ListingReader(std::istream& in, std::string name) : in_(in), name_(std::move(name)) {}

  CuobjdumpListing run() {
    CuobjdumpListing listing;
    listing.path = name_;
    LineReader lines(in_, name_);
    std::string line;
    bool any_code = false;
    while (lines.next(line)) {
      line_ = lines.line_number();
      const std::string_view text = trim(line);
      if (starts_with(text, "Fatbin elf code:")) {
        close_function(listing);
        section_ = Section::Elf;
        elf_arch_.clear();
        continue;
      }
      if (starts_with(text, "Fatbin ptx code:")) {
        close_function(listing);
        section_ = Section::Ptx;
        continue;
      }
      if (const std::string arch = code_for_arch(text); !arch.empty()) {
        close_function(listing);
        section_ = Section::Sass;
        arch_ = arch;
        any_code = true;
        continue;
      }
      switch (section_) {
        case Section::Elf:
          read_elf_line(text);
          break;
        case Section::Sass:
          read_sass_line(line, text, listing);
          break;
        case Section::None:
          if (!text.empty())
            fail(line_, 1,
                 "expected 'code for sm_NN' or a 'Fatbin ... code:' header, got '" +
                     std::string(text.substr(0, 60)) + "'");
          break;
        case Section::Ptx:
          break;
      }
    }
    close_function(listing);
    if (!any_code)
      fail(std::max<uint64_t>(line_, 1), 1, "no SASS listing ('code for sm_NN') in the file");
    for (CuobjdumpFunction& f : listing.functions) {
      auto it = resources_.find({f.arch, f.name});
      if (it != resources_.end()) f.resources = it->second;
    }
    return listing;
  }

 private:
  enum class Section { None, Elf, Ptx, Sass };

  [[noreturn]] void fail(uint64_t line, size_t column, const std::string& message) const {
    throw WorkloadError(name_ + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " +
                        message);
  }

  // ---- ELF part of a complete listing: per-function resources ---------------------

  void read_elf_line(std::string_view text) {
    if (starts_with(text, "arch = ")) {
      elf_arch_ = std::string(trim(text.substr(7)));
    } else if (starts_with(text, ".text.")) {
      const size_t end = text.find_first_of(" \t");
      pending_text_ = std::string(text.substr(6, end == std::string_view::npos ? end : end - 6));
    } else if (starts_with(text, "bar") && !pending_text_.empty()) {
      // "bar = 0	reg = 7	lmem=0	smem=68"
      std::string compact;
      for (char c : text)
        if (c != ' ') compact += c == '\t' ? ' ' : c;
      CuobjdumpResources r;
      r.line = line_;
      unsigned fields = 0;
      size_t pos = 0;
      while (pos < compact.size()) {
        size_t end = compact.find(' ', pos);
        if (end == std::string::npos) end = compact.size();
        const std::string field = compact.substr(pos, end - pos);
        pos = end + 1;
        const size_t equals = field.find('=');
        if (equals == std::string::npos) continue;
        const std::string key = field.substr(0, equals);
        const std::string value = field.substr(equals + 1);
        if (value.empty() || value.size() > 9 ||
            !std::all_of(value.begin(), value.end(), [](char c) { return std::isdigit(c) != 0; }))
          fail(line_, 1,
               "resource line: " + key + " must be a decimal number, got '" + value + "'");
        const auto number = static_cast<uint32_t>(std::stoul(value));
        if (key == "bar") r.barriers = number, ++fields;
        if (key == "reg") r.registers = number, ++fields;
        if (key == "lmem") r.local_bytes = number, ++fields;
        if (key == "smem") r.shared_bytes = number, ++fields;
      }
      r.known = fields == 4;
      if (r.known) resources_[{elf_arch_, pending_text_}] = r;
      pending_text_.clear();
    }
  }

  // ---- SASS part ------------------------------------------------------------------

  void read_sass_line(const std::string& line, std::string_view text, CuobjdumpListing& listing) {
    if (text.empty()) return;
    if (starts_with(text, "Function :") || starts_with(text, "Function:")) {
      close_function(listing);
      const std::string_view name = trim(text.substr(text.find(':') + 1));
      if (name.empty() || name.find_first_of(" \t") != std::string_view::npos)
        fail(line_, 1, "'Function :' must name one function, got '" + excerpt(name) + "'");
      if (listing.functions.size() >= input_limits::kMaxFunctions)
        fail(line_, 1,
             "more than " + std::to_string(input_limits::kMaxFunctions) +
                 " functions in one file (the input limit)");
      open_ = PendingFunction{arch_, std::string(name), line_, {}};
      return;
    }
    if (text.find_first_not_of('.') == std::string_view::npos) {  // "......" ends a listing
      close_function(listing);
      return;
    }
    if (starts_with(text, "/*") && is_encoding_only(text)) return;  // sm_30+ control words
    if (!open_) fail(line_, 1, "instruction line outside a 'Function :' listing");
    RawInst inst = parse_instruction_line(line);
    if (open_->insts.size() >= input_limits::kMaxStaticInstructions)
      fail(line_, 1,
           "more than " + std::to_string(input_limits::kMaxStaticInstructions) +
               " instructions in one function (the input limit)");
    if (!open_->insts.empty()) {
      const RawInst& last = open_->insts.back();
      const bool inline_encodings = !inst.encoding.empty();
      if (inline_encodings ? inst.pc != last.pc + last.bytes : inst.pc <= last.pc)
        fail(line_, 1,
             "address " + hex(inst.pc) + " does not follow " + hex(last.pc) + " (" +
                 std::to_string(last.bytes) + " bytes, line " + std::to_string(last.line) + ")");
    }
    open_->insts.push_back(std::move(inst));
  }

  /// "/* 0x08a0bc80c0a08cc0 */" alone on a line: a Kepler+ scheduling word.
  static bool is_encoding_only(std::string_view text) {
    if (text.size() < 5 || text.substr(text.size() - 2) != "*/") return false;
    const std::string_view inner = trim(text.substr(2, text.size() - 4));
    return starts_with(inner, "0x") && is_hex(inner.substr(2));
  }

  /// /*ADDR*/ /*0xENCODING*/ TEXT;   or (sm_30+)   /*ADDR*/ TEXT; /* 0xENCODING */
  RawInst parse_instruction_line(const std::string& line) {
    RawInst inst;
    inst.line = line_;
    size_t pos = line.find_first_not_of(" \t");
    if (pos == std::string::npos || line.compare(pos, 2, "/*") != 0)
      fail(line_, pos + 1, "expected '/*ADDRESS*/' at the start of an instruction line");
    const size_t close = line.find("*/", pos + 2);
    const std::string address(
        line.substr(pos + 2, close == std::string::npos ? 0 : close - pos - 2));
    if (close == std::string::npos || !is_hex(address) || address.size() > 16)
      fail(line_, pos + 1, "bad instruction address '/*" + excerpt(address) + "*/'");
    inst.pc = std::stoull(address, nullptr, 16);
    pos = line.find_first_not_of(" \t", close + 2);
    if (pos == std::string::npos) fail(line_, close + 3, "instruction line without an instruction");
    if (line.compare(pos, 4, "/*0x") == 0) {
      const size_t end = line.find("*/", pos + 4);
      if (end == std::string::npos) fail(line_, pos + 1, "unclosed encoding comment");
      const std::string encoding(trim(std::string_view(line).substr(pos + 4, end - pos - 4)));
      if (!is_hex(encoding) || (encoding.size() != 8 && encoding.size() != 16))
        fail(line_, pos + 1, "encoding '" + excerpt(encoding) + "' is not 8 or 16 hex digits");
      if (encoding.size() == 8 && !is_tesla(arch_))
        fail(line_, pos + 1, "4-byte encoding in " + arch_ + " code (only sm_1x has them)");
      inst.encoding = encoding;
      inst.bytes = static_cast<unsigned>(encoding.size() / 2);
      pos = line.find_first_not_of(" \t", end + 2);
      if (pos == std::string::npos) fail(line_, end + 3, "instruction line without an instruction");
    }
    size_t text_end = line.size();
    const size_t trailing = line.find("/*", pos);  // sm_30+: the encoding follows the text
    if (trailing != std::string::npos) {
      if (!inst.encoding.empty()) fail(line_, trailing + 1, "second encoding on one line");
      text_end = trailing;
    }
    inst.text = std::string(trim(std::string_view(line).substr(pos, text_end - pos)));
    inst.column = pos + 1;
    return inst;
  }

  void close_function(CuobjdumpListing& listing) {
    if (!open_) return;
    PendingFunction pending = std::move(*open_);
    open_.reset();
    if (pending.insts.empty())
      fail(pending.line, 1, "function " + excerpt(pending.name) + " lists no instructions");
    CuobjdumpFunction f;
    f.arch = pending.arch;
    f.name = pending.name;
    f.line = pending.line;
    f.listed_instructions = pending.insts.size();
    f.kernel = build_kernel(pending);
    listing.functions.push_back(std::move(f));
  }

  // ---- control flow ---------------------------------------------------------------

  Kernel build_kernel(const PendingFunction& f) {
    const SassDialect dialect = is_tesla(f.arch) ? SassDialect::Tesla : SassDialect::Fermi;
    std::map<uint64_t, size_t> index_of_pc;
    for (size_t i = 0; i < f.insts.size(); ++i) index_of_pc[f.insts[i].pc] = i;

    std::vector<Decoded> decoded(f.insts.size());
    for (size_t i = 0; i < f.insts.size(); ++i) {
      const RawInst& raw = f.insts[i];
      try {
        decoded[i].inst = parse_sass(raw.text, raw.pc, dialect);
      } catch (const SassSyntaxError& e) {
        fail(raw.line, raw.column + e.column(), e.what());
      } catch (const std::invalid_argument& e) {
        fail(raw.line, raw.column, e.what());
      }
    }
    classify_flow(f, decoded, index_of_pc);
    return explore(f, decoded);
  }

  /// The address operand of BRA/SSY/PBK/PCNT/CAL as an instruction index.
  size_t address_target(const PendingFunction& f, size_t i,
                        const std::map<uint64_t, size_t>& index_of_pc) const {
    const RawInst& raw = f.insts[i];
    const SassInstruction syntax = parse_sass_syntax(raw.text);
    if (syntax.operands.empty() || syntax.operands.back().kind != SassOperandKind::Immediate ||
        !starts_with(syntax.operands.back().text, "0x"))
      fail(raw.line, raw.column, excerpt(syntax.opcode) + " needs a hex address operand");
    const SassOperand& op = syntax.operands.back();
    const uint64_t pc = std::stoull(op.text.substr(2), nullptr, 16);
    auto it = index_of_pc.find(pc);
    if (it == index_of_pc.end())
      fail(raw.line, raw.column + op.column,
           excerpt(syntax.opcode) + " to " + hex(pc) + ", which is not an instruction of " +
               excerpt(f.name));
    return it->second;
  }

  /// Regions opened by SSY, PBK or PCNT, innermost last: the latest opener before an
  /// instruction whose target lies beyond it (for SSY: or at it) is its region.
  class Regions {
   public:
    void open(size_t target) { targets_.push_back(target); }
    /// The innermost region around instruction i, given that `i` only grows.
    std::optional<size_t> around(size_t i, bool at_counts) {
      while (!targets_.empty() && targets_.back() < i) targets_.pop_back();
      for (auto it = targets_.rbegin(); it != targets_.rend(); ++it)
        if (*it > i || (at_counts && *it == i)) return *it;
      return std::nullopt;
    }

   private:
    std::vector<size_t> targets_;
  };

  void classify_flow(const PendingFunction& f, std::vector<Decoded>& d,
                     const std::map<uint64_t, size_t>& index_of_pc) const {
    Regions sync, loop_break, loop_continue;
    for (size_t i = 0; i < f.insts.size(); ++i) {
      Decoded& x = d[i];
      const StaticInst& inst = x.inst;
      const RawInst& raw = f.insts[i];
      const std::string_view opcode = inst.opcode;
      const std::string_view base = opcode.substr(0, opcode.find('.'));
      x.guarded = inst.guard_pred >= 0 || inst.guard_negated;
      auto region = [&](Regions& regions, const char* opener, const char* what) {
        const auto target = regions.around(i, false);
        if (!target)
          fail(raw.line, raw.column,
               std::string(base) + " outside any " + what + " region (no " + opener +
                   " before it whose target lies beyond it)");
        return *target;
      };
      if (base == "BRA") {
        x.flow = Flow::Branch;
        x.target = address_target(f, i, index_of_pc);
      } else if (base == "CAL" || base == "CALL" || base == "JCAL") {
        x.flow = Flow::Call;
        x.target = address_target(f, i, index_of_pc);
      } else if (base == "SSY") {
        sync.open(address_target(f, i, index_of_pc));
      } else if (base == "PBK") {
        loop_break.open(address_target(f, i, index_of_pc));
      } else if (base == "PCNT") {
        loop_continue.open(address_target(f, i, index_of_pc));
      } else if (base == "RET") {
        x.flow = Flow::Return;
      } else if (base == "EXIT") {
        x.flow = Flow::Exit;
      } else if (base == "BRK") {
        x.flow = Flow::Break;
        x.target = region(loop_break, "PBK", "break");
      } else if (base == "CONT") {
        x.flow = Flow::Continue;
        x.target = region(loop_continue, "PCNT", "continue");
      } else if (base == "BRX" || base == "JMX" || base == "JMP") {
        fail(raw.line, raw.column,
             std::string(base) + ": indirect or absolute jumps are not supported");
      } else if (has_sync_modifier(opcode)) {
        // A sync: sm_20 code places it before the SSY target and continues there;
        // sm_1x places it at the target, where it is the join itself.
        const auto target = sync.around(i, true);
        if (target && *target != i) {
          x.flow = Flow::Sync;
          x.target = *target;
        }
      }
      // sm_1x: the last instruction carries the end-of-program bit (flow bits 01), when
      // the listing shows encodings at all.
      if (is_tesla(f.arch) && raw.bytes == 8 && raw.encoding.size() == 16 &&
          (std::stoul(raw.encoding.substr(15), nullptr, 16) & 3) == 1)
        x.flow = Flow::End;
    }
  }

  static bool has_sync_modifier(std::string_view opcode) {
    size_t dot = opcode.find('.');
    while (dot != std::string_view::npos) {
      const size_t next = opcode.find('.', dot + 1);
      if (opcode.substr(dot + 1, next == std::string_view::npos ? next : next - dot - 1) == "S")
        return true;
      dot = next;
    }
    return false;
  }

  struct Node {
    size_t index = 0;
    size_t context = 0;
    std::vector<size_t> succ;  ///< node ids
    uint64_t pc = 0;
    bool leaves = false;  ///< an EXIT or kernel-level RET (guarded or not) ends its block
  };

  /// Follows control from the entry through calls (each call site its own copy of the
  /// callee) and builds the blocks of what is reachable.
  Kernel explore(const PendingFunction& f, const std::vector<Decoded>& d) {
    std::vector<std::vector<size_t>> contexts = {{}};  // call stacks of return indices
    std::map<std::vector<size_t>, size_t> context_id = {{{}, 0}};
    std::vector<Node> nodes;
    std::map<std::pair<size_t, size_t>, size_t> node_of;
    std::vector<size_t> work;
    auto reach = [&](size_t index, size_t context) {
      auto [it, added] = node_of.try_emplace({index, context}, nodes.size());
      if (added) {
        if (nodes.size() >= input_limits::kMaxStaticInstructions)
          fail(f.line, 1,
               excerpt(f.name) + ": more than " +
                   std::to_string(input_limits::kMaxStaticInstructions) +
                   " instructions after inlining calls (the input limit)");
        nodes.push_back(Node{index, context, {}, 0});
        work.push_back(it->second);
      }
      return it->second;
    };
    auto context_of = [&](std::vector<size_t> stack) {
      auto [it, added] = context_id.try_emplace(stack, contexts.size());
      if (added) contexts.push_back(std::move(stack));
      return it->second;
    };
    reach(0, 0);
    while (!work.empty()) {
      const size_t id = work.back();
      work.pop_back();
      const size_t i = nodes[id].index;
      const size_t context = nodes[id].context;
      const Decoded& x = d[i];
      const RawInst& raw = f.insts[i];
      std::vector<size_t> succ;
      bool falls = true;
      switch (x.flow) {
        case Flow::Next:
          break;
        case Flow::Branch:
        case Flow::Break:
        case Flow::Continue:
        case Flow::Sync:
          succ.push_back(reach(x.target, context));
          falls = x.guarded;
          break;
        case Flow::Call: {
          std::vector<size_t> stack = contexts[context];
          if (stack.size() >= kMaxCallDepth)
            fail(raw.line, raw.column,
                 "calls nested deeper than " + std::to_string(kMaxCallDepth) + " (recursion?)");
          stack.push_back(i + 1);
          succ.push_back(reach(x.target, context_of(std::move(stack))));
          falls = x.guarded;
          break;
        }
        case Flow::Return: {
          const std::vector<size_t>& stack = contexts[context];
          nodes[id].leaves = stack.empty();
          if (!stack.empty()) {
            std::vector<size_t> caller(stack.begin(), stack.end() - 1);
            if (stack.back() >= f.insts.size())
              fail(raw.line, raw.column, "returns past the last instruction of " + excerpt(f.name));
            succ.push_back(reach(stack.back(), context_of(std::move(caller))));
          }
          falls = x.guarded;
          break;
        }
        case Flow::Exit:
          nodes[id].leaves = true;
          falls = x.guarded;
          break;
        case Flow::End:
          falls = false;
          break;
      }
      if (falls) {
        if (i + 1 >= f.insts.size())
          fail(raw.line, raw.column,
               "control falls past the last instruction of " + excerpt(f.name));
        succ.insert(succ.begin(), reach(i + 1, context));
      }
      nodes[id].succ = std::move(succ);
    }
    assign_pcs(f, contexts.size(), nodes);
    return make_blocks(f, d, contexts, nodes);
  }

  /// The entry context keeps the listed PCs; so does each call context whose
  /// instructions no earlier context holds (a subroutine's first call site). Further
  /// copies move by whole windows above the listing's last address.
  void assign_pcs(const PendingFunction& f, size_t context_count, std::vector<Node>& nodes) const {
    std::vector<std::vector<size_t>> members(context_count);
    for (size_t id = 0; id < nodes.size(); ++id) members[nodes[id].context].push_back(id);
    const uint64_t last = f.insts.back().pc + f.insts.back().bytes;
    const uint64_t window = (last + kCopyAlignment - 1) / kCopyAlignment * kCopyAlignment;
    std::set<size_t> at_listed_pc;
    uint64_t copies = 0;
    for (size_t c = 0; c < context_count; ++c) {
      const bool fresh = std::none_of(members[c].begin(), members[c].end(), [&](size_t id) {
        return at_listed_pc.count(nodes[id].index) != 0;
      });
      const uint64_t offset = fresh ? 0 : ++copies * window;
      for (size_t id : members[c]) {
        nodes[id].pc = f.insts[nodes[id].index].pc + offset;
        if (fresh) at_listed_pc.insert(nodes[id].index);
      }
    }
  }

  Kernel make_blocks(const PendingFunction& f, const std::vector<Decoded>& d,
                     const std::vector<std::vector<size_t>>& contexts,
                     const std::vector<Node>& nodes) const {
    std::vector<size_t> order(nodes.size());
    for (size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::sort(order.begin(), order.end(),
              [&](size_t a, size_t b) { return nodes[a].pc < nodes[b].pc; });
    std::vector<size_t> position(nodes.size());
    for (size_t k = 0; k < order.size(); ++k) position[order[k]] = k;
    std::vector<uint32_t> predecessors(nodes.size(), 0);
    std::vector<bool> reached_other_than_next(nodes.size(), false);
    for (size_t id = 0; id < nodes.size(); ++id)
      for (size_t s : nodes[id].succ) {
        ++predecessors[s];
        if (position[s] != position[id] + 1) reached_other_than_next[s] = true;
      }

    Kernel kernel;
    kernel.name = f.name;
    kernel.arch = f.arch;
    std::vector<uint32_t> block_of(nodes.size(), 0);
    for (size_t k = 0; k < order.size(); ++k) {
      const size_t id = order[k];
      bool leader = k == 0 || reached_other_than_next[id] || predecessors[id] != 1;
      if (!leader) {
        const Node& previous = nodes[order[k - 1]];
        leader = previous.leaves || previous.succ.size() != 1 || previous.succ[0] != id;
      }
      if (leader) {
        BasicBlock block;
        block.id = static_cast<uint32_t>(kernel.blocks.size());
        block.name = "BB_" + hex(nodes[id].pc);
        kernel.blocks.push_back(std::move(block));
      }
      block_of[id] = kernel.blocks.back().id;
      StaticInst inst = d[nodes[id].index].inst;
      inst.pc = nodes[id].pc;
      const Flow flow = d[nodes[id].index].flow;
      if (flow == Flow::Return && !contexts[nodes[id].context].empty())
        inst.opcode = "BRA";  // an inlined RET jumps back to its call site (text keeps RET)
      if ((flow == Flow::Branch || flow == Flow::Call || flow == Flow::Break ||
           flow == Flow::Continue || flow == Flow::Sync) &&
          !nodes[id].succ.empty())
        inst.target = hex(nodes[nodes[id].succ.back()].pc);
      kernel.blocks.back().insts.push_back(std::move(inst));
    }
    for (size_t k = 0; k < order.size(); ++k) {
      const size_t id = order[k];
      const bool ends_block = k + 1 == order.size() || block_of[order[k + 1]] != block_of[id];
      if (!ends_block) continue;
      for (size_t s : nodes[id].succ) kernel.add_edge(block_of[id], block_of[s]);
    }
    kernel.entry = block_of[0];
    return kernel;
  }

  std::istream& in_;
  std::string name_;
  uint64_t line_ = 0;
  Section section_ = Section::None;
  std::string arch_;
  std::string elf_arch_;
  std::string pending_text_;
  std::map<std::pair<std::string, std::string>, CuobjdumpResources> resources_;
  std::optional<PendingFunction> open_;
};

}  // namespace

bool is_cuobjdump_listing(const std::string& path) {
  const std::string head = input_head(path, 4096);
  size_t pos = 0;
  while (pos < head.size()) {
    size_t end = head.find('\n', pos);
    if (end == std::string::npos) end = head.size();
    const std::string_view line = trim(std::string_view(head).substr(pos, end - pos));
    if (!line.empty())
      return !code_for_arch(line).empty() || starts_with(line, "Fatbin elf code:") ||
             starts_with(line, "Fatbin ptx code:");
    pos = end + 1;
  }
  return false;
}

CuobjdumpListing read_cuobjdump(std::istream& in, const std::string& name) {
  return ListingReader(in, name).run();
}

CuobjdumpListing read_cuobjdump(const std::string& path) {
  const auto in = open_input(path, "cuobjdump listing", input_limits::kMaxTextBytes);
  return read_cuobjdump(*in, path);
}

std::string cuobjdump_selector(const CuobjdumpFunction& function) {
  return function.arch + ":" + function.name;
}

const CuobjdumpFunction& select_cuobjdump_function(const CuobjdumpListing& listing,
                                                   const std::string& selector) {
  if (listing.functions.empty()) throw WorkloadError(listing.path + ": no functions");
  if (selector.empty()) return listing.functions.front();
  std::string arch;
  std::string function = selector;
  const size_t colon = selector.find(':');
  if (starts_with(selector, "sm_")) {
    arch = selector.substr(0, colon);
    function = colon == std::string::npos ? "" : selector.substr(colon + 1);
  }
  for (const CuobjdumpFunction& f : listing.functions)
    if ((arch.empty() || f.arch == arch) && (function.empty() || f.name == function)) return f;
  std::string have;
  for (const CuobjdumpFunction& f : listing.functions)
    have += (have.empty() ? "" : ", ") + cuobjdump_selector(f);
  throw WorkloadError(listing.path + ": no function '" + selector + "' (the file has: " + have +
                      ")");
}

}  // namespace warpreg
