#include "stimuli/import/accelsim_trace.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <iostream>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "common/params.h"
#include "stimuli/import/input_file.h"
#include "stimuli/kernel/kernel_ir.h"

namespace warpreg {

namespace {

std::string quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r'))
    text.remove_suffix(1);
  return text;
}

void split_whitespace(std::string_view text, std::vector<std::string_view>& out) {
  out.clear();
  size_t pos = 0;
  while (pos < text.size()) {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t' || text[pos] == '\r')) ++pos;
    size_t end = pos;
    while (end < text.size() && text[end] != ' ' && text[end] != '\t' && text[end] != '\r') ++end;
    if (end > pos) out.push_back(text.substr(pos, end - pos));
    pos = end;
  }
}

/// Hexadecimal with an optional 0x prefix and 1..max_digits digits, nothing else.
bool parse_hex(std::string_view text, unsigned max_digits, uint64_t& out) {
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
    text.remove_prefix(2);
  if (text.empty() || text.size() > max_digits) return false;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out, 16);
  return error == std::errc() && end == text.data() + text.size();
}

/// Unsigned decimal, digits only, at most `max`.
bool parse_decimal(std::string_view text, uint64_t max, uint64_t& out) {
  if (text.empty() || text.size() > 19) return false;
  for (char c : text)
    if (c < '0' || c > '9') return false;
  std::from_chars(text.data(), text.data() + text.size(), out);
  return out <= max;
}

bool parse_u32(std::string_view text, uint32_t& out) {
  uint64_t value = 0;
  if (!parse_decimal(text, std::numeric_limits<uint32_t>::max(), value)) return false;
  out = static_cast<uint32_t>(value);
  return true;
}

/// A signed decimal (strides, deltas, immediates) or a 0x hex number.
bool is_integer(std::string_view text) {
  uint64_t ignored = 0;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
    return parse_hex(text, 16, ignored);
  if (!text.empty() && text[0] == '-') text.remove_prefix(1);
  return parse_decimal(text, std::numeric_limits<uint64_t>::max(), ignored);
}

/// A decimal (or 0x hex) integer with an optional minus sign.
bool parse_signed(std::string_view text, int64_t& out) {
  const bool negative = !text.empty() && text[0] == '-';
  if (negative) text.remove_prefix(1);
  uint64_t magnitude = 0;
  const bool ok = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')
                      ? parse_hex(text, 16, magnitude)
                      : parse_decimal(text, std::numeric_limits<uint64_t>::max(), magnitude);
  if (!ok) return false;
  out = negative ? -static_cast<int64_t>(magnitude) : static_cast<int64_t>(magnitude);
  return true;
}

/// The memory space an opcode addresses (its first dot-separated part), and whether it
/// is a read-modify-write performed at the L2 (docs/memory.md, "Accel-Sim addresses").
MemorySpace memory_space_of(std::string_view opcode, bool& atomic) {
  const std::string_view base = opcode.substr(0, opcode.find('.'));
  atomic = base == "ATOM" || base == "ATOMG" || base == "RED";
  if (base == "LDS" || base == "STS" || base == "LDSM" || base == "ATOMS")
    return MemorySpace::Shared;
  if (base == "LDL" || base == "STL") return MemorySpace::Local;
  if (base == "LDC" || base == "ULDC") return MemorySpace::Constant;
  return MemorySpace::Global;
}

/// "(x,y,z)" with each component at least 1.
bool parse_dim3(std::string_view text, uint32_t (&out)[3]) {
  if (text.size() < 2 || text.front() != '(' || text.back() != ')') return false;
  text = text.substr(1, text.size() - 2);
  for (unsigned i = 0; i < 3; ++i) {
    size_t comma = i < 2 ? text.find(',') : text.size();
    if (comma == std::string_view::npos) return false;
    if (!parse_u32(trim(text.substr(0, comma)), out[i]) || out[i] == 0) return false;
    text = i < 2 ? text.substr(comma + 1) : std::string_view();
  }
  return true;
}

/// A token in a register position: R0..R255 (R255 is RZ), URn (uniform) or malformed.
enum class RegisterToken { Thread, Uniform, Malformed, NotARegister };

RegisterToken classify_register(std::string_view text, uint16_t& out) {
  const bool uniform = text.size() >= 2 && text[0] == 'U' && text[1] == 'R';
  std::string_view number = text.substr(uniform ? 2 : 1);
  const bool register_shaped = (uniform || (!text.empty() && text[0] == 'R')) && !number.empty() &&
                               ((number[0] >= '0' && number[0] <= '9') || number == "Z");
  if (!register_shaped) return RegisterToken::NotARegister;
  if (number == "Z") {
    out = kZeroRegister;
    return uniform ? RegisterToken::Uniform : RegisterToken::Thread;
  }
  uint64_t value = 0;
  if (number.size() > 3 || !parse_decimal(number, kZeroRegister, value))
    return RegisterToken::Malformed;
  out = static_cast<uint16_t>(value);
  return uniform ? RegisterToken::Uniform : RegisterToken::Thread;
}

bool is_opcode(std::string_view text) {
  if (text.empty() || text[0] < 'A' || text[0] > 'Z') return false;
  for (char c : text)
    if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_')) return false;
  return true;
}

bool class_writes_registers(InstClass cls) {
  return cls == InstClass::Alu || cls == InstClass::Sfu || cls == InstClass::Load;
}

uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/// The value of destination `k` of instruction `index` of a warp. Real registers are
/// mostly uniform across lanes or lane-affine with small strides (addresses, thread
/// ids), so the value model draws those shapes; a quarter of the values are noisy.
void fill_destination_value(uint64_t warp_seed, uint32_t index, unsigned k, WarpRegister& value) {
  uint64_t state = splitmix64(warp_seed ^ (uint64_t{index} << 2 | k));
  const uint32_t base = static_cast<uint32_t>(state >> 32);
  const unsigned shape = static_cast<unsigned>(state & 3);
  if (shape == 0) {
    value.lane.fill(base);
    return;
  }
  if (shape == 3) {
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
      state = splitmix64(state);
      value.lane[lane] = base + static_cast<uint32_t>(state & 0xff);
    }
    return;
  }
  const uint32_t stride = 1u << static_cast<unsigned>((state >> 2) & 7);
  for (unsigned lane = 0; lane < kWarpSize; ++lane) value.lane[lane] = base + lane * stride;
}

}  // namespace

/// One pass over a .traceg file; fills the workload's members.
class AccelSimParser {
 public:
  explicit AccelSimParser(AccelSimTraceWorkload& workload)
      : workload_(workload), source_name_(workload.source_name_) {}

  void run(std::istream& in) {
    LineReader lines(in, source_name_);
    std::string line;
    while (lines.next(line)) {
      line_number_ = lines.line_number();
      const std::string_view text = trim(line);
      if (text.empty()) continue;
      parse_line(text);
    }
    if (lines.failed()) fail("read error");
    finish();
  }

 private:
  enum class Stage { Header, BetweenBlocks, BlockId, Warp, InstCount, Instructions };

  struct HeaderField {
    uint64_t line = 0;  ///< 0 while absent
    std::string_view key;
  };

  [[noreturn]] void fail(uint64_t line, const std::string& message) const {
    throw WorkloadError(source_name_ + ":" + std::to_string(line) + ": " + message);
  }
  [[noreturn]] void fail(const std::string& message) const { fail(line_number_, message); }

  void parse_line(std::string_view text) {
    if (text == "#BEGIN_TB") return begin_block();
    if (text == "#END_TB") return end_block();
    if (text[0] == '#') return;  // the "#traces format" line and other comments
    switch (stage_) {
      case Stage::Header:
        if (text[0] != '-')
          fail("expected a '-key = value' header line or #BEGIN_TB, got " + quoted(text));
        return parse_header_line(text);
      case Stage::BetweenBlocks:
        if (text[0] == '-') fail("header line " + quoted(text) + " after the first #BEGIN_TB");
        fail("expected #BEGIN_TB, got " + quoted(text));
      case Stage::BlockId:
        return parse_block_id(text);
      case Stage::Warp:
        return parse_warp_header(text);
      case Stage::InstCount:
        return parse_inst_count(text);
      case Stage::Instructions:
        return parse_instruction(text);
    }
  }

  // ---- header -------------------------------------------------------------------

  void parse_header_line(std::string_view text) {
    const size_t equals = text.find('=');
    if (equals == std::string_view::npos)
      fail("header line " + quoted(text) + " is not '-key = value'");
    const std::string_view key = trim(text.substr(1, equals - 1));
    const std::string_view value = trim(text.substr(equals + 1));
    if (key == "kernel name") {
      if (value.empty() || value.find_first_of(" \t") != std::string_view::npos)
        fail("-kernel name must be one word, got " + quoted(value));
      workload_.shape_.name = std::string(value);
      mark(kernel_name_);
    } else if (key == "grid dim") {
      if (!parse_dim3(value, grid_)) fail(dim3_error("grid dim", value));
      mark(grid_dim_);
    } else if (key == "block dim") {
      if (!parse_dim3(value, block_)) fail(dim3_error("block dim", value));
      mark(block_dim_);
    } else if (key == "shmem") {
      if (!parse_u32(value, workload_.shape_.shared_mem_per_cta))
        fail("-shmem must be a decimal byte count, got " + quoted(value));
      mark(shmem_);
    } else if (key == "nregs") {
      if (!parse_u32(value, workload_.header_nregs_))
        fail("-nregs must be a decimal number, got " + quoted(value));
      mark(nregs_);
    } else if (key == "trace version" || key == "accelsim tracer version") {
      uint32_t version = 0;
      if (!parse_u32(value, version))
        fail("-" + std::string(key) + " must be a decimal number, got " + quoted(value));
      // Tracer versions before 3 start every instruction line with the thread block's
      // x, y, z and the warp id (the layout Accel-Sim's parser still skips).
      four_leading_columns_ = version < 3;
      layout_known_ = true;
      mark(key == "trace version" ? trace_version_ : tracer_version_);
    } else if (key == "enable lineinfo") {
      if (value != "0" && value != "1")
        fail("-enable lineinfo must be 0 or 1, got " + quoted(value));
      has_line_numbers_ = value == "1";
      mark(lineinfo_);
    }
    // Other keys (kernel id, binary version, base addresses, tool versions) say nothing
    // the register file needs.
  }

  static std::string dim3_error(std::string_view key, std::string_view value) {
    return "-" + std::string(key) + " must be (x,y,z) with decimal numbers of at least 1, got " +
           quoted(value);
  }

  void mark(HeaderField& field) {
    if (field.line != 0)
      fail("header key given twice (first at line " + std::to_string(field.line) + ")");
    field.line = line_number_;
  }

  /// Derives the kernel shape at the first #BEGIN_TB.
  void finish_header() {
    if (kernel_name_.line == 0) fail("header has no '-kernel name = ...' line");
    if (grid_dim_.line == 0) fail("header has no '-grid dim = (x,y,z)' line");
    if (block_dim_.line == 0) fail("header has no '-block dim = (x,y,z)' line");
    const uint64_t ctas = uint64_t{grid_[0]} * grid_[1] * grid_[2];
    if (ctas > std::numeric_limits<uint32_t>::max())
      fail(grid_dim_.line, "-grid dim has " + std::to_string(ctas) + " thread blocks, over 2^32-1");
    const uint64_t threads = uint64_t{block_[0]} * block_[1] * block_[2];
    if (threads > kMaxThreadsPerCta)
      fail(block_dim_.line, "-block dim has " + std::to_string(threads) + " threads, over " +
                                std::to_string(kMaxThreadsPerCta));
    workload_.shape_.ctas = static_cast<uint32_t>(ctas);
    workload_.shape_.threads_per_cta = static_cast<uint32_t>(threads);
  }

  // ---- block and warp structure ---------------------------------------------------

  void begin_block() {
    if (stage_ == Stage::Header) {
      finish_header();
    } else if (stage_ != Stage::BetweenBlocks) {
      fail("#BEGIN_TB inside the thread block opened at line " + std::to_string(block_line_));
    }
    block_line_ = line_number_;
    stage_ = Stage::BlockId;
  }

  void end_block() {
    if (stage_ == Stage::Header || stage_ == Stage::BetweenBlocks)
      fail("#END_TB without #BEGIN_TB");
    if (stage_ == Stage::BlockId) fail("#END_TB before the 'thread block = x,y,z' line");
    if (stage_ == Stage::InstCount) fail("#END_TB where 'insts = K' was expected");
    if (stage_ == Stage::Instructions) fail_short_warp();
    check_block_complete();
    stage_ = Stage::BetweenBlocks;
  }

  /// Splits "name = value" and checks the name.
  bool keyword_line(std::string_view text, std::string_view name, std::string_view& value) const {
    const size_t equals = text.find('=');
    if (equals == std::string_view::npos || trim(text.substr(0, equals)) != name) return false;
    value = trim(text.substr(equals + 1));
    return true;
  }

  void parse_block_id(std::string_view text) {
    std::string_view value;
    if (!keyword_line(text, "thread block", value))
      fail("expected 'thread block = x,y,z' after #BEGIN_TB, got " + quoted(text));
    uint32_t id[3] = {0, 0, 0};
    for (unsigned i = 0; i < 3; ++i) {
      const size_t comma = i < 2 ? value.find(',') : value.size();
      if (comma == std::string_view::npos || !parse_u32(trim(value.substr(0, comma)), id[i]))
        fail("expected 'thread block = x,y,z' with decimal numbers, got " + quoted(text));
      value = i < 2 ? value.substr(comma + 1) : std::string_view();
    }
    for (unsigned i = 0; i < 3; ++i)
      if (id[i] >= grid_[i])
        fail("thread block " + block_name(id) + " is outside the grid (" +
             std::to_string(grid_[0]) + "," + std::to_string(grid_[1]) + "," +
             std::to_string(grid_[2]) + ")");
    cta_ = id[0] + id[1] * grid_[0] + id[2] * grid_[0] * grid_[1];
    cta_name_ = block_name(id);
    auto [seen, inserted] = block_line_of_.emplace(cta_, line_number_);
    if (!inserted)
      fail("thread block " + cta_name_ + " appears twice (first at line " +
           std::to_string(seen->second) + ")");
    block_id_line_ = line_number_;
    stream_ = nullptr;
    warp_line_of_.assign(workload_.shape_.warps_per_cta(), 0);
    stage_ = Stage::Warp;
  }

  void parse_warp_header(std::string_view text) {
    std::string_view value;
    if (!keyword_line(text, "warp", value)) {
      uint64_t pc = 0;
      std::vector<std::string_view> tokens;
      split_whitespace(text, tokens);
      if (stream_ != nullptr && parse_hex(tokens[0], 16, pc))
        fail("instruction beyond the " + std::to_string(insts_expected_) + " that 'insts = " +
             std::to_string(insts_expected_) + "' at line " + std::to_string(insts_line_) +
             " announces for warp " + std::to_string(warp_) + " of thread block " + cta_name_);
      fail("expected 'warp = N' or #END_TB, got " + quoted(text));
    }
    if (!parse_u32(value, warp_)) fail("expected 'warp = N' with a decimal N, got " + quoted(text));
    if (warp_ >= warp_line_of_.size())
      fail("warp " + std::to_string(warp_) + " but a block of " +
           std::to_string(workload_.shape_.threads_per_cta) + " threads has " +
           std::to_string(warp_line_of_.size()) + " warps");
    if (warp_line_of_[warp_] != 0)
      fail("warp " + std::to_string(warp_) + " of thread block " + cta_name_ +
           " appears twice (first at line " + std::to_string(warp_line_of_[warp_]) + ")");
    warp_line_of_[warp_] = line_number_;
    warp_line_ = line_number_;
    stage_ = Stage::InstCount;
  }

  void parse_inst_count(std::string_view text) {
    std::string_view value;
    if (!keyword_line(text, "insts", value))
      fail("expected 'insts = K' after 'warp = N', got " + quoted(text));
    if (!parse_u32(value, insts_expected_))
      fail("expected 'insts = K' with a decimal K, got " + quoted(text));
    if (insts_expected_ > input_limits::kMaxTraceInstructions - workload_.total_instructions_)
      fail("insts: " + std::to_string(insts_expected_) +
           " instructions would take the trace past " +
           std::to_string(input_limits::kMaxTraceInstructions) +
           " dynamic instructions, the input limit (" +
           std::to_string(workload_.total_instructions_) + " read so far)");
    if (insts_expected_ == 0)
      fail(warp_line_, "warp " + std::to_string(warp_) + " of thread block " + cta_name_ +
                           " has no instructions, so it does not end with EXIT");
    insts_line_ = line_number_;
    keys_.push_back(uint64_t{cta_} * warp_line_of_.size() + warp_);
    workload_.streams_.emplace_back();
    stream_ = &workload_.streams_.back();
    warp_seed_ = splitmix64(splitmix64(splitmix64(workload_.seed_) ^ cta_) ^ warp_);
    stage_ = Stage::Instructions;
  }

  [[noreturn]] void fail_short_warp() const {
    fail("warp " + std::to_string(warp_) + " of thread block " + cta_name_ + " has " +
         std::to_string(stream_->insts.size()) +
         " instructions but 'insts = " + std::to_string(insts_expected_) + "' at line " +
         std::to_string(insts_line_) + " announces " + std::to_string(insts_expected_));
  }

  void check_block_complete() const {
    for (size_t w = 0; w < warp_line_of_.size(); ++w)
      if (warp_line_of_[w] == 0)
        fail(block_id_line_,
             "thread block " + cta_name_ + " has no warp " + std::to_string(w) + " (a block of " +
                 std::to_string(workload_.shape_.threads_per_cta) + " threads has " +
                 std::to_string(warp_line_of_.size()) + " warps)");
  }

  // ---- instructions ----------------------------------------------------------------

  /// [line_num] PC mask dest_num [dests] opcode src_num [srcs] mem_width [mode addresses]
  /// [immediate]
  void parse_instruction(std::string_view text) {
    if (text.substr(0, 4) == "warp" || text.substr(0, 5) == "insts") fail_short_warp();
    split_whitespace(text, tokens_);
    next_token_ = 0;
    if (!layout_known_) {
      // Without a version key: the token after "PC mask dest_num" (after "line PC mask"
      // with lineinfo) is a register or an opcode in the current layout, a decimal
      // number (warp id or line) in the older one.
      const size_t k = has_line_numbers_ ? 4 : 3;
      uint64_t ignored = 0;
      four_leading_columns_ =
          tokens_.size() > k &&
          parse_decimal(tokens_[k], std::numeric_limits<uint64_t>::max(), ignored);
      layout_known_ = true;
    }
    if (four_leading_columns_) check_leading_columns();
    if (has_line_numbers_) {
      uint64_t ignored = 0;
      if (!parse_decimal(take("line number"), std::numeric_limits<uint64_t>::max(), ignored))
        fail("lineinfo is enabled: expected a decimal source line number first, got " +
             quoted(tokens_[0]));
    }
    WarpInst inst;
    const std::string_view pc = take("PC");
    if (!parse_hex(pc, 16, inst.pc)) fail("PC must be up to 16 hex digits, got " + quoted(pc));
    const std::string_view mask = take("active mask");
    uint64_t active = 0;
    if (!parse_hex(mask, 8, active))
      fail("active mask must be up to 8 hex digits, got " + quoted(mask));
    inst.active = static_cast<LaneMask>(active);

    inst.num_dst = parse_registers("dest_num", "destination", kMaxDst, inst.dst.data());
    const std::string_view opcode = take("opcode");
    if (!is_opcode(opcode)) {
      uint16_t ignored = 0;
      if (classify_register(opcode, ignored) != RegisterToken::NotARegister)
        fail("dest_num = " + std::to_string(declared_count_) +
             " but another register follows: " + quoted(opcode));
      fail("expected an opcode after the destinations, got " + quoted(opcode));
    }
    inst.num_src = parse_registers("src_num", "source", kMaxSrc, inst.src.data());
    const uint32_t mem_width = read_memory_operand(inst.active);
    if (tokens_.size() - next_token_ > 1)
      fail("unexpected " + quoted(tokens_[next_token_ + 1]) + " after the immediate " +
           quoted(tokens_[next_token_]));
    if (next_token_ < tokens_.size() && !is_integer(tokens_[next_token_]))
      fail("the immediate must be an integer, got " + quoted(tokens_[next_token_]));

    const uint32_t index = static_cast<uint32_t>(stream_->insts.size());
    inst.cls = classify_opcode(opcode, inst.num_dst != 0);
    // Threads that exit early (predicated or divergent EXIT) leave the warp running.
    if (inst.cls == InstClass::Exit && index + 1 < insts_expected_) inst.cls = InstClass::Branch;
    if (index + 1 == insts_expected_ && inst.cls != InstClass::Exit)
      fail(warp_line_, "warp " + std::to_string(warp_) + " of thread block " + cta_name_ +
                           " does not end with EXIT (its last instruction, at line " +
                           std::to_string(line_number_) + ", is " + quoted(opcode) + ")");
    if (!class_writes_registers(inst.cls)) inst.num_dst = 0;
    if (inst.cls == InstClass::Exit) inst.num_src = 0;
    if (const uint16_t twice = inst.repeated_destination(); twice != kZeroRegister)
      fail("destination R" + std::to_string(twice) + " listed twice");
    note_registers(inst);
    note_static(inst, opcode, index);
    inst.value_index = static_cast<uint32_t>(stream_->values.size());
    total_values_ += inst.num_dst;
    if (total_values_ > input_limits::kMaxTraceValues)
      fail("dest_num: more than " + std::to_string(input_limits::kMaxTraceValues) +
           " destination values in the trace, the input limit");
    for (unsigned k = 0; k < inst.num_dst; ++k) {
      stream_->values.emplace_back();
      fill_destination_value(warp_seed_, index, k, stream_->values.back());
    }
    if (mem_width != 0 && (inst.cls == InstClass::Load || inst.cls == InstClass::Store)) {
      // The lanes' addresses follow the destinations' values: low, then high 32 bits.
      bool atomic = false;
      const MemorySpace space = memory_space_of(opcode, atomic);
      inst.mem = MemOperand::make(space, mem_width, atomic, true);
      total_values_ += 2;
      // Both first: a second emplace_back may move the first.
      stream_->values.resize(stream_->values.size() + 2);
      WarpRegister& lo = stream_->values[stream_->values.size() - 2];
      WarpRegister& hi = stream_->values.back();
      for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
        lo.lane[lane] = static_cast<uint32_t>(lane_addresses_[lane]);
        hi.lane[lane] = static_cast<uint32_t>(lane_addresses_[lane] >> 32);
      }
    }
    stream_->insts.push_back(inst);
    ++workload_.total_instructions_;
    if (stream_->insts.size() == insts_expected_) stage_ = Stage::Warp;
  }

  /// Tracer versions 1-2: "x y z warp" of the open block and warp lead every line.
  void check_leading_columns() {
    static const char* const kNames[] = {"thread block x", "thread block y", "thread block z",
                                         "warp id"};
    const uint32_t expected[] = {cta_ % grid_[0], cta_ / grid_[0] % grid_[1],
                                 cta_ / (grid_[0] * grid_[1]), warp_};
    for (unsigned i = 0; i < 4; ++i) {
      const std::string_view token = take(kNames[i]);
      uint32_t value = 0;
      if (!parse_u32(token, value))
        fail(std::string(kNames[i]) + " (column " + std::to_string(i + 1) +
             " of the older tracer layout) must be a decimal number, got " + quoted(token));
      if (value != expected[i])
        fail(std::string(kNames[i]) + " is " + std::to_string(value) + " but the line is in " +
             "warp " + std::to_string(warp_) + " of thread block " + cta_name_);
    }
  }

  std::string_view take(const char* what) {
    if (next_token_ >= tokens_.size())
      fail("instruction line ends where the " + std::string(what) + " was expected");
    return tokens_[next_token_++];
  }

  /// COUNT followed by COUNT register tokens; uniform registers are dropped (they are
  /// not in the per-thread register file).
  uint8_t parse_registers(const char* count_name, const char* role, unsigned max_count,
                          uint16_t* out) {
    const std::string_view count_token = take(count_name);
    uint64_t count = 0;
    if (!parse_decimal(count_token, 255, count))
      fail(std::string(count_name) + " must be a decimal number, got " + quoted(count_token));
    declared_count_ = count;
    unsigned kept = 0;
    for (uint64_t i = 0; i < count; ++i) {
      if (next_token_ >= tokens_.size())
        fail(std::string(count_name) + " = " + std::to_string(count) + " but the line ends after " +
             std::to_string(i) + " " + role + "(s)");
      const std::string_view token = tokens_[next_token_++];
      uint16_t reg = 0;
      switch (classify_register(token, reg)) {
        case RegisterToken::Uniform:
          break;
        case RegisterToken::Thread:
          if (kept == max_count)
            fail("more than " + std::to_string(max_count) + " " + role +
                 " registers; warpreg keeps at most " + std::to_string(max_count));
          out[kept++] = reg;
          break;
        case RegisterToken::Malformed:
          fail("bad register " + quoted(token) + " (R0..R255 or URn)");
        case RegisterToken::NotARegister:
          fail(std::string(count_name) + " = " + std::to_string(count) + " but " + role + " " +
               std::to_string(i + 1) + " is " + quoted(token) + ", not a register");
      }
    }
    return static_cast<uint8_t>(kept);
  }

  /// mem_width, then for a memory instruction the address-compression mode and the
  /// addresses, which it decodes into lane_addresses_ (inactive lanes 0): mode 0 lists
  /// one per active lane; 1 is the first active lane's address and the stride between
  /// consecutive active lanes (the tracer uses it only for contiguous active lanes);
  /// 2 is the first address and one delta per further active lane. Returns mem_width
  /// (bytes per lane; 0 for an instruction without memory operand).
  uint32_t read_memory_operand(LaneMask active) {
    const unsigned active_lanes = static_cast<unsigned>(__builtin_popcount(active));
    const std::string_view width_token = take("mem_width");
    uint64_t width = 0;
    if (!parse_decimal(width_token, std::numeric_limits<uint32_t>::max(), width)) {
      uint16_t ignored = 0;
      if (classify_register(width_token, ignored) != RegisterToken::NotARegister)
        fail("src_num = " + std::to_string(declared_count_) +
             " but another register follows: " + quoted(width_token));
      fail("mem_width must be a decimal number, got " + quoted(width_token));
    }
    if (width == 0) return 0;
    if (width > 16 || (width & (width - 1)) != 0)
      fail("mem_width must be 1, 2, 4, 8 or 16 bytes per lane, got " + quoted(width_token));
    const std::string_view mode_token = take("address compression mode");
    unsigned addresses = 0;
    if (mode_token == "0") {
      addresses = active_lanes;
    } else if (mode_token == "1") {
      addresses = 2;
    } else if (mode_token == "2") {
      addresses = std::max(active_lanes, 1u);
    } else {
      fail("address compression mode must be 0, 1 or 2, got " + quoted(mode_token));
    }
    uint64_t first = 0;
    int64_t step = 0;
    lane_addresses_.fill(0);
    unsigned k = 0;  // active lanes given an address so far
    for (unsigned i = 0; i < addresses; ++i) {
      if (next_token_ >= tokens_.size())
        fail("memory address list ends after " + std::to_string(i) + " of " +
             std::to_string(addresses) + " entries (mode " + std::string(mode_token) + ", " +
             std::to_string(active_lanes) + " active lanes)");
      const std::string_view entry = tokens_[next_token_++];
      const bool ok =
          i == 0 || mode_token == "0" ? parse_hex(entry, 16, first) : parse_signed(entry, step);
      if (!ok) fail("bad memory address entry " + quoted(entry));
      if (mode_token == "0") {
        set_next_lane_address(active, k, first);
      } else if (mode_token == "2") {
        if (i == 0) step = 0;
        set_next_lane_address(active, k, i == 0 ? first : lane_address_of(k - 1) + step);
      }
    }
    if (mode_token == "1")
      while (k < active_lanes) set_next_lane_address(active, k, first + uint64_t(step) * k);
    return static_cast<uint32_t>(width);
  }

  /// Gives the k-th active lane of `active` its address and moves k on.
  void set_next_lane_address(LaneMask active, unsigned& k, uint64_t address) {
    unsigned seen = 0;
    for (uint32_t lane = 0; lane < kWarpSize; ++lane)
      if ((active >> lane) & 1u) {
        if (seen++ == k) {
          lane_addresses_[lane] = address;
          active_lane_[k] = lane;
          ++k;
          return;
        }
      }
  }
  uint64_t lane_address_of(unsigned k) const { return lane_addresses_[active_lane_[k]]; }

  /// Records the static instruction at the PC (checking that every warp agrees on it)
  /// and the control transfer from the warp's previous instruction.
  void note_static(const WarpInst& inst, std::string_view opcode, uint32_t index) {
    auto [it, added] = static_of_pc_.try_emplace(inst.pc);
    StaticRecord& record = it->second;
    if (added) {
      record.line = line_number_;
      record.inst.pc = inst.pc;
      record.inst.opcode = std::string(opcode);
      record.inst.cls = classify_opcode(opcode, inst.num_dst != 0);
      for (unsigned k = 0; k < inst.num_dst; ++k)
        if (inst.dst[k] != kZeroRegister) record.inst.dst.push_back(inst.dst[k]);
      for (unsigned k = 0; k < inst.num_src; ++k)
        if (inst.src[k] != kZeroRegister &&
            std::find(record.inst.src.begin(), record.inst.src.end(), inst.src[k]) ==
                record.inst.src.end())
          record.inst.src.push_back(inst.src[k]);
      record.inst.text = record.inst.opcode;
      const char* separator = " ";
      for (uint16_t r : record.inst.dst) {
        record.inst.text += separator + ("R" + std::to_string(r));
        separator = ", ";
      }
      for (uint16_t r : record.inst.src) {
        record.inst.text += separator + ("R" + std::to_string(r));
        separator = ", ";
      }
    } else if (record.inst.opcode != opcode) {
      fail("PC " + hex_pc(inst.pc) + " is " + quoted(opcode) + " here but " +
           quoted(std::string_view(record.inst.opcode)) + " at line " +
           std::to_string(record.line));
    }
    if (index == 0) {
      if (!entry_pc_) entry_pc_ = inst.pc;
    } else {
      transfers_.emplace(previous_pc_, inst.pc);
    }
    previous_pc_ = inst.pc;
  }

  static std::string hex_pc(uint64_t pc) {
    char buffer[24];
    std::snprintf(buffer, sizeof buffer, "0x%llx", static_cast<unsigned long long>(pc));
    return buffer;
  }

  /// The static CFG from the instructions every warp executed: a block ends at an
  /// instruction whose observed successors are not just the next PC, and starts at an
  /// instruction reached from elsewhere than the previous PC.
  void build_static_kernel() {
    Kernel& kernel = workload_.static_kernel_;
    kernel.name = workload_.shape_.name;
    std::map<uint64_t, std::vector<uint64_t>> successors;
    std::map<uint64_t, std::vector<uint64_t>> predecessors;
    for (const auto& [from, to] : transfers_) {
      successors[from].push_back(to);
      predecessors[to].push_back(from);
    }
    std::map<uint64_t, uint32_t> block_of_pc;
    std::optional<uint64_t> previous;
    for (auto& [pc, record] : static_of_pc_) {
      bool leader = !previous || pc == entry_pc_;
      if (!leader) {
        const auto out = successors.find(*previous);
        const auto in = predecessors.find(pc);
        leader = out == successors.end() || out->second.size() != 1 || out->second[0] != pc ||
                 (in != predecessors.end() && in->second.size() != 1) ||
                 !may_fall_through(static_of_pc_.at(*previous).inst) ||
                 static_of_pc_.at(*previous).inst.cls == InstClass::Branch;
      }
      if (leader) {
        BasicBlock block;
        block.id = static_cast<uint32_t>(kernel.blocks.size());
        block.name = "BB_" + hex_pc(pc);
        kernel.blocks.push_back(std::move(block));
      }
      block_of_pc[pc] = kernel.blocks.back().id;
      kernel.blocks.back().insts.push_back(record.inst);
      previous = pc;
    }
    for (const auto& [from, to] : transfers_) {
      const uint32_t a = block_of_pc.at(from), b = block_of_pc.at(to);
      if (kernel.blocks[a].insts.back().pc == from) kernel.add_edge(a, b);
    }
    if (entry_pc_) kernel.entry = block_of_pc.at(*entry_pc_);
  }

  void note_registers(const WarpInst& inst) {
    for (unsigned i = 0; i < inst.num_dst; ++i)
      if (inst.dst[i] != kZeroRegister)
        highest_register_ = std::max<int>(highest_register_, inst.dst[i]);
    for (unsigned i = 0; i < inst.num_src; ++i)
      if (inst.src[i] != kZeroRegister)
        highest_register_ = std::max<int>(highest_register_, inst.src[i]);
  }

  // ---- end of file -----------------------------------------------------------------

  void finish() {
    if (stage_ == Stage::Header) {
      if (line_number_ == 0) fail(1, "empty trace");
      fail("trace ends before the first #BEGIN_TB");
    }
    if (stage_ != Stage::BetweenBlocks)
      fail("trace ends inside the thread block opened at line " + std::to_string(block_line_) +
           " (no #END_TB)");
    KernelShape& shape = workload_.shape_;
    for (uint32_t cta = 0; cta < shape.ctas; ++cta)
      if (block_line_of_.count(cta) == 0) {
        const uint32_t id[3] = {cta % grid_[0], cta / grid_[0] % grid_[1],
                                cta / (grid_[0] * grid_[1])};
        fail(grid_dim_.line, "-grid dim promises " + std::to_string(shape.ctas) +
                                 " thread blocks but the trace has no thread block " +
                                 block_name(id) + " (" +
                                 std::to_string(shape.ctas - block_line_of_.size()) + " missing)");
      }
    const uint64_t warps_per_cta = shape.warps_per_cta();
    workload_.stream_of_warp_.assign(uint64_t{shape.ctas} * warps_per_cta, 0);
    for (size_t i = 0; i < keys_.size(); ++i)
      workload_.stream_of_warp_[keys_[i]] = static_cast<uint32_t>(i);

    shape.regs_per_thread = static_cast<uint32_t>(highest_register_ + 1);
    build_static_kernel();
    if (nregs_.line != 0 && workload_.header_nregs_ != shape.regs_per_thread)
      workload_.warnings_.push_back(
          source_name_ + ":" + std::to_string(nregs_.line) + ": -nregs = " +
          std::to_string(workload_.header_nregs_) + " disagrees with the instructions, " +
          (highest_register_ < 0
               ? std::string("which use no register")
               : "whose highest register is R" + std::to_string(highest_register_)) +
          "; using regs_per_thread = " + std::to_string(shape.regs_per_thread));
  }

  static std::string block_name(const uint32_t (&id)[3]) {
    return std::to_string(id[0]) + "," + std::to_string(id[1]) + "," + std::to_string(id[2]);
  }

  static constexpr uint64_t kMaxThreadsPerCta = 1u << 16;

  AccelSimTraceWorkload& workload_;
  const std::string& source_name_;
  Stage stage_ = Stage::Header;
  uint64_t line_number_ = 0;

  HeaderField kernel_name_, grid_dim_, block_dim_, shmem_, nregs_, lineinfo_, trace_version_,
      tracer_version_;
  /// Instruction lines begin with "x y z warp" (tracer versions 1 and 2).
  bool four_leading_columns_ = false;
  /// A version key said which layout; otherwise the first instruction line tells.
  bool layout_known_ = false;
  uint32_t grid_[3] = {1, 1, 1};
  uint32_t block_[3] = {1, 1, 1};
  bool has_line_numbers_ = false;

  uint64_t block_line_ = 0;     ///< the open #BEGIN_TB
  uint64_t block_id_line_ = 0;  ///< its 'thread block' line
  uint32_t cta_ = 0;
  std::string cta_name_;
  std::unordered_map<uint32_t, uint64_t> block_line_of_;
  std::vector<uint64_t> warp_line_of_;  ///< 'warp = N' line of each warp of the open block

  uint32_t warp_ = 0;
  uint64_t warp_line_ = 0;
  uint32_t insts_expected_ = 0;
  uint64_t insts_line_ = 0;
  uint64_t warp_seed_ = 0;
  WarpTrace* stream_ = nullptr;
  std::vector<uint64_t> keys_;  ///< cta * warps_per_cta + warp of streams_[i]

  struct StaticRecord {
    StaticInst inst;
    uint64_t line = 0;  ///< where the PC was first seen
  };
  std::map<uint64_t, StaticRecord> static_of_pc_;
  std::set<std::pair<uint64_t, uint64_t>> transfers_;  ///< (PC, next PC) pairs any warp took
  std::optional<uint64_t> entry_pc_;  ///< every 64-bit value is a PC a trace may hold
  uint64_t previous_pc_ = 0;

  std::vector<std::string_view> tokens_;
  std::array<uint64_t, kWarpSize> lane_addresses_{};  ///< the memory operand being read
  std::array<uint32_t, kWarpSize> active_lane_{};     ///< lane of the k-th active lane
  size_t next_token_ = 0;
  uint64_t declared_count_ = 0;
  int highest_register_ = -1;
  uint64_t total_values_ = 0;
};

bool is_accelsim_trace_name(const std::string& name) {
  for (const std::string_view suffix :
       {std::string_view(".traceg"), std::string_view(".traceg.gz")})
    if (name.size() > suffix.size() &&
        std::string_view(name).substr(name.size() - suffix.size()) == suffix)
      return true;
  return false;
}

std::unique_ptr<Workload> open_accelsim_trace(const std::string& path, const Params& params) {
  return std::make_unique<AccelSimTraceWorkload>(path,
                                                 static_cast<uint64_t>(params.integer("sim.seed")));
}

AccelSimTraceWorkload::AccelSimTraceWorkload(const std::string& path, uint64_t seed)
    : source_name_(path), seed_(seed) {
  const auto in = open_input(path, "Accel-Sim trace", input_limits::kMaxTextBytes);
  parse(*in);
}

AccelSimTraceWorkload::AccelSimTraceWorkload(std::istream& in, std::string source_name,
                                             uint64_t seed)
    : source_name_(std::move(source_name)), seed_(seed) {
  parse(in);
}

void AccelSimTraceWorkload::parse(std::istream& in) {
  AccelSimParser(*this).run(in);
  for (const std::string& warning : warnings_) std::cerr << "warpreg: warning: " << warning << '\n';
}

WarpStream& AccelSimTraceWorkload::load_warp(uint32_t slot, uint32_t cta, uint32_t warp) {
  if (cta >= shape_.ctas || warp >= shape_.warps_per_cta())
    throw WorkloadError(source_name_ + ": no warp " + std::to_string(cta) + " " +
                        std::to_string(warp) + " in a kernel of " + std::to_string(shape_.ctas) +
                        " CTAs x " + std::to_string(shape_.warps_per_cta()) + " warps");
  return slots_.play(slot,
                     streams_[stream_of_warp_[uint64_t{cta} * shape_.warps_per_cta() + warp]]);
}

std::string AccelSimTraceWorkload::describe() const {
  return "accelsim trace " + source_name_ + " seed " + std::to_string(seed_);
}

}  // namespace warpreg
