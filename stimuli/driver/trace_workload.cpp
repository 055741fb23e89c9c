#include "stimuli/driver/trace_workload.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "stimuli/import/input_file.h"

namespace warpreg {

namespace {

constexpr std::string_view kHeaderKeyword = "warpreg-trace";
constexpr uint32_t kSupportedVersion = 1;

std::string quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

/// Splits `text` at runs of spaces and tabs.
void split_whitespace(std::string_view text, std::vector<std::string_view>& out) {
  out.clear();
  size_t pos = 0;
  while (pos < text.size()) {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t')) ++pos;
    size_t end = pos;
    while (end < text.size() && text[end] != ' ' && text[end] != '\t') ++end;
    if (end > pos) out.push_back(text.substr(pos, end - pos));
    pos = end;
  }
}

/// Splits `text` at every `separator`; empty pieces are kept so callers can reject them.
void split_on(std::string_view text, char separator, std::vector<std::string_view>& out) {
  out.clear();
  size_t start = 0;
  for (;;) {
    size_t end = text.find(separator, start);
    if (end == std::string_view::npos) {
      out.push_back(text.substr(start));
      return;
    }
    out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
}

/// Hexadecimal with an optional 0x prefix and 1..max_digits digits, nothing else.
bool parse_hex(std::string_view text, unsigned max_digits, uint64_t& out) {
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
    text.remove_prefix(2);
  if (text.empty() || text.size() > max_digits) return false;
  uint64_t value = 0;
  for (char c : text) {
    unsigned digit;
    if (c >= '0' && c <= '9') {
      digit = static_cast<unsigned>(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      digit = static_cast<unsigned>(c - 'a' + 10);
    } else if (c >= 'A' && c <= 'F') {
      digit = static_cast<unsigned>(c - 'A' + 10);
    } else {
      return false;
    }
    value = (value << 4) | digit;
  }
  out = value;
  return true;
}

bool parse_hex32(std::string_view text, uint32_t& out) {
  uint64_t value = 0;
  if (!parse_hex(text, 8, value)) return false;
  out = static_cast<uint32_t>(value);
  return true;
}

/// Unsigned decimal that fits 32 bits, digits only.
bool parse_decimal(std::string_view text, uint32_t& out) {
  if (text.empty() || text.size() > 10) return false;
  for (char c : text)
    if (c < '0' || c > '9') return false;
  uint64_t value = 0;
  std::from_chars(text.data(), text.data() + text.size(), value);
  if (value > std::numeric_limits<uint32_t>::max()) return false;
  out = static_cast<uint32_t>(value);
  return true;
}

/// R0..R255 (R255 is RZ, as Accel-Sim writes it) or RZ.
bool parse_register(std::string_view text, uint16_t& out) {
  if (text == "RZ") {
    out = kZeroRegister;
    return true;
  }
  if (text.size() < 2 || text.size() > 4 || text[0] != 'R') return false;
  uint32_t number = 0;
  if (!parse_decimal(text.substr(1), number) || number > kZeroRegister) return false;
  out = static_cast<uint16_t>(number);
  return true;
}

bool class_writes_registers(InstClass cls) {
  return cls == InstClass::Alu || cls == InstClass::Sfu || cls == InstClass::Load;
}

/// The checks of one pass over a trace; fills the workload's members.
class TraceParser {
 public:
  TraceParser(const std::string& source_name, KernelShape& shape, std::vector<WarpTrace>& streams,
              std::vector<uint32_t>& stream_of_warp, uint64_t& total_instructions)
      : source_name_(source_name),
        shape_(shape),
        streams_(streams),
        stream_of_warp_(stream_of_warp),
        total_instructions_(total_instructions) {}

  void run(std::istream& in) {
    LineReader lines(in, source_name_);
    std::string line;
    while (lines.next(line)) {
      line_number_ = lines.line_number();
      std::string_view text(line);
      size_t comment = text.find('#');
      if (comment != std::string_view::npos) text = text.substr(0, comment);
      if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
      split_whitespace(text, tokens_);
      if (tokens_.empty()) continue;
      switch (stage_) {
        case Stage::Header:
          parse_header();
          break;
        case Stage::Kernel:
          parse_kernel();
          break;
        case Stage::Body:
          parse_body_line();
          break;
      }
    }
    if (lines.failed()) fail(line_number_, "read error");
    finish();
  }

 private:
  enum class Stage { Header, Kernel, Body };

  struct OpenWarp {
    uint32_t cta = 0;
    uint32_t warp = 0;
    uint64_t header_line = 0;
    uint64_t exit_line = 0;  ///< 0 until the warp's exit is read
    WarpTrace* stream = nullptr;
  };

  [[noreturn]] void fail(uint64_t line, const std::string& message) const {
    throw WorkloadError(source_name_ + ":" + std::to_string(line) + ": " + message);
  }
  [[noreturn]] void fail(const std::string& message) const { fail(line_number_, message); }

  void parse_header() {
    if (tokens_[0] != kHeaderKeyword)
      fail("expected the header '" + std::string(kHeaderKeyword) + " " +
           std::to_string(kSupportedVersion) + "', got " + quoted(tokens_[0]));
    uint32_t version = 0;
    if (tokens_.size() != 2 || !parse_decimal(tokens_[1], version))
      fail("malformed header: expected '" + std::string(kHeaderKeyword) + " VERSION'");
    if (version != kSupportedVersion)
      fail("unsupported trace version " + std::to_string(version) + " (this reader knows version " +
           std::to_string(kSupportedVersion) + ")");
    stage_ = Stage::Kernel;
  }

  /// kernel NAME ctas=N threads_per_cta=N regs_per_thread=N shared_mem_per_cta=N
  void parse_kernel() {
    constexpr std::string_view kUsage =
        "expected 'kernel NAME ctas=N threads_per_cta=N regs_per_thread=N shared_mem_per_cta=N'";
    if (tokens_[0] != "kernel") fail(std::string(kUsage) + ", got " + quoted(tokens_[0]));
    if (tokens_.size() != 6) fail(std::string(kUsage) + " (6 fields)");
    shape_.name = std::string(tokens_[1]);
    shape_.ctas = kernel_field(tokens_[2], "ctas", 1, std::numeric_limits<uint32_t>::max());
    shape_.threads_per_cta = kernel_field(tokens_[3], "threads_per_cta", 1, 1u << 16);
    shape_.regs_per_thread = kernel_field(tokens_[4], "regs_per_thread", 1, kMaxArchRegisters);
    shape_.shared_mem_per_cta =
        kernel_field(tokens_[5], "shared_mem_per_cta", 0, std::numeric_limits<uint32_t>::max());
    kernel_line_ = line_number_;
    stage_ = Stage::Body;
  }

  uint32_t kernel_field(std::string_view token, std::string_view key, uint32_t min, uint32_t max) {
    std::string prefix = std::string(key) + "=";
    uint32_t value = 0;
    if (token.substr(0, prefix.size()) != prefix)
      fail("kernel line: expected " + prefix + "N, got " + quoted(token));
    if (!parse_decimal(token.substr(prefix.size()), value))
      fail("kernel line: " + std::string(key) + " must be a decimal number, got " + quoted(token));
    if (value < min || value > max)
      fail("kernel line: " + std::string(key) + "=" + std::to_string(value) + " is outside [" +
           std::to_string(min) + ", " + std::to_string(max) + "]");
    return value;
  }

  void parse_body_line() {
    if (tokens_[0] == "warp") return parse_warp_header();
    if (tokens_[0] == "kernel")
      fail("second kernel line (kernel at line " + std::to_string(kernel_line_) + ")");
    if (tokens_[0] == kHeaderKeyword) fail("second '" + std::string(kHeaderKeyword) + "' header");
    if (open_.stream == nullptr) fail("instruction before the first 'warp CTA WARP' line");
    parse_instruction();
  }

  /// warp CTA WARP
  void parse_warp_header() {
    close_warp();
    uint32_t cta = 0;
    uint32_t warp = 0;
    if (tokens_.size() != 3 || !parse_decimal(tokens_[1], cta) || !parse_decimal(tokens_[2], warp))
      fail("expected 'warp CTA WARP' with decimal numbers");
    if (cta >= shape_.ctas)
      fail("warp header names CTA " + std::to_string(cta) + " but the kernel has " +
           std::to_string(shape_.ctas) + " CTAs");
    if (warp >= shape_.warps_per_cta())
      fail("warp header names warp " + std::to_string(warp) + " but a CTA of " +
           std::to_string(shape_.threads_per_cta) + " threads has " +
           std::to_string(shape_.warps_per_cta()) + " warps");
    uint64_t key = warp_key(cta, warp);
    auto [seen, inserted] = header_line_of_.emplace(key, line_number_);
    if (!inserted)
      fail("warp " + std::to_string(cta) + " " + std::to_string(warp) +
           " appears twice (first at line " + std::to_string(seen->second) + ")");
    keys_.push_back(key);
    streams_.emplace_back();
    open_ = OpenWarp{cta, warp, line_number_, 0, &streams_.back()};
  }

  /// PC MASK CLASS [d=REGS] [s=REGS] [v=VALUE ...]
  void parse_instruction() {
    if (open_.exit_line != 0)
      fail("instruction after the exit of warp " + warp_name() + " (exit at line " +
           std::to_string(open_.exit_line) + ")");
    if (tokens_.size() < 3) fail("expected 'PC MASK CLASS [d=REGS] [s=REGS] [v=VALUE ...]'");
    WarpInst inst;
    if (!parse_hex(tokens_[0], 16, inst.pc))
      fail("PC must be up to 16 hex digits, got " + quoted(tokens_[0]));
    if (!parse_hex32(tokens_[1], inst.active))
      fail("active mask must be up to 8 hex digits, got " + quoted(tokens_[1]));
    if (!parse_inst_class(tokens_[2], inst.cls))
      fail("unknown instruction class " + quoted(tokens_[2]) +
           " (alu, sfu, load, store, branch, barrier or exit)");

    WarpTrace& stream = *open_.stream;
    if (total_instructions_ >= input_limits::kMaxTraceInstructions)
      fail("more than " + std::to_string(input_limits::kMaxTraceInstructions) +
           " instructions in the trace, the input limit");
    inst.value_index = static_cast<uint32_t>(stream.values.size());
    unsigned values_read = 0;
    enum { kAfterClass, kAfterDst, kAfterSrc, kInValues } field_stage = kAfterClass;
    for (size_t t = 3; t < tokens_.size(); ++t) {
      std::string_view token = tokens_[t];
      std::string_view key = token.substr(0, 2);
      std::string_view body = token.substr(std::min<size_t>(2, token.size()));
      if (key == "d=" && field_stage == kAfterClass) {
        inst.num_dst = parse_register_list(body, "d", kMaxDst, inst.dst.data());
        field_stage = kAfterDst;
      } else if (key == "s=" && field_stage < kAfterSrc) {
        inst.num_src = parse_register_list(body, "s", kMaxSrc, inst.src.data());
        field_stage = kAfterSrc;
      } else if (key == "v=") {
        if (values_read == inst.num_dst)
          fail("more v= values than destinations (" + std::to_string(inst.num_dst) + ")");
        if (++total_values_ > input_limits::kMaxTraceValues)
          fail("v=: more than " + std::to_string(input_limits::kMaxTraceValues) +
               " destination values in the trace, the input limit");
        stream.values.push_back(parse_value(body));
        ++values_read;
        field_stage = kInValues;
      } else if (key == "d=" || key == "s=") {
        fail("field " + quoted(token) + " out of order: fields are d=, s=, then v=, each once");
      } else {
        fail("unknown field " + quoted(token) + " (expected d=, s= or v=)");
      }
    }
    if (values_read != inst.num_dst)
      fail(std::to_string(inst.num_dst) + " destination(s) but " + std::to_string(values_read) +
           " v= value(s): give one value per destination");
    check_operands(inst);
    if (inst.cls == InstClass::Exit) open_.exit_line = line_number_;
    stream.insts.push_back(inst);
    line_number_of_last_inst_ = line_number_;
    ++total_instructions_;
  }

  uint8_t parse_register_list(std::string_view body, const char* field, unsigned max_count,
                              uint16_t* out) {
    split_on(body, ',', pieces_);
    if (pieces_.size() > max_count)
      fail(std::string(field) + "= lists " + std::to_string(pieces_.size()) +
           " registers, at most " + std::to_string(max_count) + " allowed");
    for (size_t i = 0; i < pieces_.size(); ++i) {
      uint16_t reg = 0;
      if (!parse_register(pieces_[i], reg))
        fail("bad register " + quoted(pieces_[i]) + " in " + field + "= (R0..R254 or RZ)");
      if (reg != kZeroRegister && reg >= shape_.regs_per_thread)
        fail("register R" + std::to_string(reg) +
             " is not below regs_per_thread=" + std::to_string(shape_.regs_per_thread));
      out[i] = reg;
    }
    return static_cast<uint8_t>(pieces_.size());
  }

  /// 32 comma-separated hex words (lane 0 first), const:X or affine:BASE:STRIDE.
  WarpRegister parse_value(std::string_view body) {
    WarpRegister value;
    split_on(body, ':', pieces_);
    if (pieces_[0] == "const") {
      uint32_t word = 0;
      if (pieces_.size() != 2 || !parse_hex32(pieces_[1], word))
        fail("bad value " + quoted(body) + ": expected const:X with X up to 8 hex digits");
      value.lane.fill(word);
      return value;
    }
    if (pieces_[0] == "affine") {
      uint32_t base = 0;
      uint32_t stride = 0;
      if (pieces_.size() != 3 || !parse_hex32(pieces_[1], base) || !parse_hex32(pieces_[2], stride))
        fail("bad value " + quoted(body) +
             ": expected affine:BASE:STRIDE with hex numbers of up to 8 digits");
      for (unsigned lane = 0; lane < kWarpSize; ++lane) value.lane[lane] = base + lane * stride;
      return value;
    }
    split_on(body, ',', pieces_);
    if (pieces_.size() != kWarpSize)
      fail("bad value " + quoted(body.substr(0, 40)) + ": expected " + std::to_string(kWarpSize) +
           " comma-separated hex words, const:X or affine:BASE:STRIDE; got " +
           std::to_string(pieces_.size()) + " word(s)");
    for (unsigned lane = 0; lane < kWarpSize; ++lane)
      if (!parse_hex32(pieces_[lane], value.lane[lane]))
        fail("bad value word " + quoted(pieces_[lane]) + " for lane " + std::to_string(lane) +
             ": expected up to 8 hex digits");
    return value;
  }

  void check_operands(const WarpInst& inst) {
    std::string_view name = to_string(inst.cls);
    if (inst.num_dst != 0 && !class_writes_registers(inst.cls))
      fail(std::string(name) + " writes no register: remove d=");
    if (inst.cls == InstClass::Exit && inst.num_src != 0) fail("exit reads no register: remove s=");
    if (const uint16_t twice = inst.repeated_destination(); twice != kZeroRegister)
      fail("destination R" + std::to_string(twice) + " listed twice");
  }

  void close_warp() {
    if (open_.stream == nullptr || open_.exit_line != 0) return;
    fail(open_.header_line, "warp " + warp_name() +
                                " does not end with exit (its stream ends at line " +
                                std::to_string(last_instruction_line()) + ")");
  }

  uint64_t last_instruction_line() const {
    return open_.stream->insts.empty() ? open_.header_line : line_number_of_last_inst_;
  }

  void finish() {
    if (stage_ == Stage::Header)
      fail(std::max<uint64_t>(line_number_, 1), "empty trace: expected the header '" +
                                                    std::string(kHeaderKeyword) + " " +
                                                    std::to_string(kSupportedVersion) + "'");
    if (stage_ == Stage::Kernel) fail(line_number_, "trace ends before the kernel line");
    close_warp();
    const uint64_t warps_per_cta = shape_.warps_per_cta();
    const uint64_t expected = uint64_t{shape_.ctas} * warps_per_cta;
    if (streams_.size() != expected) {
      std::vector<uint64_t> present = keys_;
      std::sort(present.begin(), present.end());
      uint64_t missing = 0;
      while (missing < present.size() &&
             present[missing] == warp_key(static_cast<uint32_t>(missing / warps_per_cta),
                                          static_cast<uint32_t>(missing % warps_per_cta)))
        ++missing;
      fail(kernel_line_, "the kernel promises " + std::to_string(shape_.ctas) + " CTAs x " +
                             std::to_string(warps_per_cta) + " warps but the trace has no warp " +
                             std::to_string(missing / warps_per_cta) + " " +
                             std::to_string(missing % warps_per_cta) + " (" +
                             std::to_string(expected - streams_.size()) + " warp(s) missing)");
    }
    stream_of_warp_.assign(expected, 0);
    for (size_t i = 0; i < keys_.size(); ++i) {
      uint64_t cta = keys_[i] >> 32;
      uint64_t warp = keys_[i] & 0xffffffffu;
      stream_of_warp_[cta * warps_per_cta + warp] = static_cast<uint32_t>(i);
    }
  }

  static uint64_t warp_key(uint32_t cta, uint32_t warp) { return (uint64_t{cta} << 32) | warp; }
  std::string warp_name() const {
    return std::to_string(open_.cta) + " " + std::to_string(open_.warp);
  }

  const std::string& source_name_;
  KernelShape& shape_;
  std::vector<WarpTrace>& streams_;
  std::vector<uint32_t>& stream_of_warp_;
  uint64_t& total_instructions_;

  Stage stage_ = Stage::Header;
  uint64_t line_number_ = 0;
  uint64_t kernel_line_ = 0;
  uint64_t line_number_of_last_inst_ = 0;
  OpenWarp open_;
  std::vector<uint64_t> keys_;  ///< (cta, warp) of streams_[i]
  std::unordered_map<uint64_t, uint64_t> header_line_of_;
  std::vector<std::string_view> tokens_;
  std::vector<std::string_view> pieces_;
  uint64_t total_values_ = 0;
};

}  // namespace

TraceWorkload::TraceWorkload(const std::string& path) : source_name_(path) {
  const auto in = open_input(path, "trace file", input_limits::kMaxTextBytes);
  parse(*in);
}

TraceWorkload::TraceWorkload(std::istream& in, std::string source_name)
    : source_name_(std::move(source_name)) {
  parse(in);
}

void TraceWorkload::parse(std::istream& in) {
  TraceParser(source_name_, shape_, streams_, stream_of_warp_, total_instructions_).run(in);
}

WarpStream& TraceWorkload::load_warp(uint32_t slot, uint32_t cta, uint32_t warp) {
  if (cta >= shape_.ctas || warp >= shape_.warps_per_cta())
    throw WorkloadError(source_name_ + ": no warp " + std::to_string(cta) + " " +
                        std::to_string(warp) + " in a kernel of " + std::to_string(shape_.ctas) +
                        " CTAs x " + std::to_string(shape_.warps_per_cta()) + " warps");
  return slots_.play(slot,
                     streams_[stream_of_warp_[uint64_t{cta} * shape_.warps_per_cta() + warp]]);
}

namespace {

void append_registers(std::string& line, const char* field, const uint16_t* regs, unsigned count) {
  line += field;
  for (unsigned i = 0; i < count; ++i) {
    if (i != 0) line += ',';
    line += regs[i] == kZeroRegister ? std::string("RZ") : "R" + std::to_string(regs[i]);
  }
}

void append_value(std::string& line, const WarpRegister& value) {
  char word[16];
  const uint32_t base = value.lane[0];
  const uint32_t stride = value.lane[1] - base;
  bool affine = true;
  for (unsigned lane = 2; lane < kWarpSize && affine; ++lane)
    affine = value.lane[lane] == base + lane * stride;
  if (affine && stride == 0) {
    std::snprintf(word, sizeof word, "%x", base);
    line += " v=const:";
    line += word;
    return;
  }
  if (affine) {
    std::snprintf(word, sizeof word, "%x", base);
    line += " v=affine:";
    line += word;
    std::snprintf(word, sizeof word, ":%x", stride);
    line += word;
    return;
  }
  line += " v=";
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    std::snprintf(word, sizeof word, lane == 0 ? "%08x" : ",%08x", value.lane[lane]);
    line += word;
  }
}

}  // namespace

void write_trace(Workload& workload, std::ostream& out) {
  const KernelShape& shape = workload.shape();
  if (shape.name.empty() || shape.name.find_first_of(" \t#\r\n") != std::string::npos)
    throw WorkloadError("cannot write a trace for kernel name '" + shape.name +
                        "': it must be one word without '#'");
  out << kHeaderKeyword << ' ' << kSupportedVersion << "\n# " << workload.describe() << "\nkernel "
      << shape.name << " ctas=" << shape.ctas << " threads_per_cta=" << shape.threads_per_cta
      << " regs_per_thread=" << shape.regs_per_thread
      << " shared_mem_per_cta=" << shape.shared_mem_per_cta << "\n";
  std::string line;
  char prefix[48];
  for (uint32_t cta = 0; cta < shape.ctas; ++cta) {
    for (uint32_t warp = 0; warp < shape.warps_per_cta(); ++warp) {
      out << "\nwarp " << cta << ' ' << warp << '\n';
      WarpStream& stream = workload.load_warp(0, cta, warp);
      visit_stream(stream, [&](const WarpInst& inst, uint32_t) {
        std::snprintf(prefix, sizeof prefix, "0x%04llx %08x ",
                      static_cast<unsigned long long>(inst.pc), inst.active);
        line = prefix;
        line += to_string(inst.cls);
        if (inst.num_dst != 0) append_registers(line, " d=", inst.dst.data(), inst.num_dst);
        if (inst.num_src != 0) append_registers(line, " s=", inst.src.data(), inst.num_src);
        for (unsigned k = 0; k < inst.num_dst; ++k) append_value(line, stream.value(inst, k));
        line += '\n';
        out << line;
      });
    }
  }
}

}  // namespace warpreg
