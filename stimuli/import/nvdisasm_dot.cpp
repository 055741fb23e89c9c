#include "stimuli/import/nvdisasm_dot.h"

#include <array>
#include <cctype>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "common/json_input.h"
#include "modules/interfaces/workload.h"
#include "stimuli/import/input_file.h"
#include "stimuli/kernel/sass_grammar.h"

namespace warpreg {

namespace {

constexpr uint64_t kInstructionBytes = 8;  // Fermi/Kepler SASS instructions are 64-bit
constexpr int kMaxSubgraphDepth = 16;

struct Token {
  enum Kind { Word, String, Punct, Arrow, End } kind = End;
  std::string text;
  int line = 1;
};

/// A record field of a node label: its port ("entry", "exit0", "exitpost0" or empty)
/// and its lines with Graphviz escapes removed.
struct Field {
  std::string port;
  std::vector<std::string> lines;
};

struct Node {
  size_t function = 0;
  int line = 0;
  std::vector<uint32_t> blocks;           // in layout order
  std::map<std::string, uint32_t> ports;  // port -> block that owns it
};

struct PendingEdge {
  std::string from, from_port, to, to_port;
  int line = 0;
};

class DotReader {
 public:
  DotReader(std::istream& in, std::string name) : name_(std::move(name)) {
    std::array<char, 1 << 16> chunk{};
    while (in.read(chunk.data(), chunk.size()) || in.gcount() > 0) {
      text_.append(chunk.data(), static_cast<size_t>(in.gcount()));
      if (text_.size() > input_limits::kMaxDotBytes)
        throw WorkloadError(name_ + ": more than " +
                            std::to_string(input_limits::kMaxDotBytes >> 20) +
                            " MiB, the input limit of an nvdisasm CFG");
    }
  }
  DotReader(std::string text, std::string name) : name_(std::move(name)), text_(std::move(text)) {}

  std::vector<Kernel> read() {
    advance();
    expect_word("digraph");
    functions_.push_back(Kernel{});  // nodes outside any cluster, named after the graph
    instructions_.push_back(0);
    if (token_.kind == Token::Word || token_.kind == Token::String) functions_[0].name = read_id();
    read_statements(0, 0);
    if (token_.kind != Token::End) fail(token_.line, "text after the closing '}'");
    resolve_edges();
    std::vector<Kernel> out;
    for (Kernel& k : functions_)
      if (!k.blocks.empty()) out.push_back(std::move(k));
    if (out.empty()) fail(token_.line, "graph has no basic blocks");
    return out;
  }

 private:
  [[noreturn]] void fail(int line, const std::string& message) const {
    throw WorkloadError(name_ + ":" + std::to_string(line) + ": " + message);
  }

  void skip_space_and_comments() {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == '\n') {
        ++line_;
        ++pos_;
      } else if (std::isspace(static_cast<unsigned char>(c))) {
        ++pos_;
      } else if (text_.compare(pos_, 2, "//") == 0 || (c == '#' && at_line_start())) {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else if (text_.compare(pos_, 2, "/*") == 0) {
        const size_t end = text_.find("*/", pos_ + 2);
        if (end == std::string::npos) fail(line_, "unterminated comment");
        for (size_t i = pos_; i < end; ++i) line_ += text_[i] == '\n';
        pos_ = end + 2;
      } else {
        return;
      }
    }
  }

  bool at_line_start() const { return pos_ == 0 || text_[pos_ - 1] == '\n'; }

  void advance() {
    skip_space_and_comments();
    token_ = Token{};
    token_.line = line_;
    if (pos_ >= text_.size()) return;
    const char c = text_[pos_];
    if (c == '"') {
      token_.kind = Token::String;
      ++pos_;
      while (true) {
        if (pos_ >= text_.size()) fail(token_.line, "unterminated string");
        const char d = text_[pos_++];
        if (d == '"') break;
        if (d == '\n') ++line_;
        token_.text += d;
        if (d == '\\' && pos_ < text_.size()) {  // keep escapes; the label decoder reads them
          if (text_[pos_] == '\n') ++line_;
          token_.text += text_[pos_++];
        }
      }
    } else if (text_.compare(pos_, 2, "->") == 0) {
      token_.kind = Token::Arrow;
      pos_ += 2;
    } else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-') {
      token_.kind = Token::Word;
      while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) ||
                                     text_[pos_] == '_' || text_[pos_] == '.'))
        token_.text += text_[pos_++];
      if (token_.text.empty()) fail(line_, std::string("unexpected character '") + c + "'");
    } else if (std::string_view("{}[];,:=").find(c) != std::string_view::npos) {
      token_.kind = Token::Punct;
      token_.text = std::string(1, c);
      ++pos_;
    } else {
      fail(line_, std::string("unexpected character '") + c + "'");
    }
  }

  bool is_punct(char c) const { return token_.kind == Token::Punct && token_.text[0] == c; }

  void expect_punct(char c) {
    if (!is_punct(c)) fail(token_.line, std::string("expected '") + c + "'" + found());
    advance();
  }

  void expect_word(const char* word) {
    if (token_.kind != Token::Word || token_.text != word)
      fail(token_.line, std::string("expected '") + word + "'" + found());
    advance();
  }

  std::string found() const {
    if (token_.kind == Token::End) return " but the file ends (unbalanced braces?)";
    return " but found " + quote_text(token_.text);
  }

  std::string read_id() {
    if (token_.kind != Token::Word && token_.kind != Token::String)
      fail(token_.line, "expected a name" + found());
    std::string id = token_.text;
    advance();
    return id;
  }

  /// [key=value, ...]; returns the attributes.
  std::map<std::string, std::pair<std::string, int>> read_attributes() {
    std::map<std::string, std::pair<std::string, int>> attrs;
    if (!is_punct('[')) return attrs;
    advance();
    while (!is_punct(']')) {
      const std::string key = read_id();
      expect_punct('=');
      const int line = token_.line;
      attrs[key] = {read_id(), line};
      if (is_punct(',') || is_punct(';')) advance();
    }
    advance();
    return attrs;
  }

  /// Reads statements until the '}' closing the current graph or subgraph.
  void read_statements(size_t function, int depth) {
    expect_punct('{');
    while (!is_punct('}')) {
      if (token_.kind == Token::End) fail(token_.line, "missing '}' (unbalanced braces)");
      if (token_.kind == Token::Word && token_.text == "subgraph") {
        if (depth >= kMaxSubgraphDepth) fail(token_.line, "subgraphs nested too deeply");
        advance();
        std::string cluster =
            token_.kind == Token::String || token_.kind == Token::Word ? read_id() : std::string();
        const std::string prefix = "cluster_";
        if (cluster.rfind(prefix, 0) == 0) cluster = cluster.substr(prefix.size());
        if (functions_.size() >= input_limits::kMaxFunctions)
          fail(token_.line, "more than " + std::to_string(input_limits::kMaxFunctions) +
                                " functions (the input limit)");
        functions_.push_back(Kernel{});
        instructions_.push_back(0);
        functions_.back().name = cluster;
        read_statements(functions_.size() - 1, depth + 1);
      } else if (token_.kind == Token::Word &&
                 (token_.text == "node" || token_.text == "edge" || token_.text == "graph")) {
        advance();
        read_attributes();
      } else if (token_.kind == Token::Punct && token_.text == ";") {
        advance();
      } else {
        read_node_or_edge(function);
      }
    }
    advance();
  }

  void read_node_or_edge(size_t function) {
    const int line = token_.line;
    std::string port;
    const std::string from = read_endpoint(port);
    if (token_.kind == Token::Arrow) {
      advance();
      PendingEdge edge{from, port, "", "", line};
      edge.to = read_endpoint(edge.to_port);
      if (token_.kind == Token::Arrow) fail(token_.line, "edge chains are not supported");
      read_attributes();
      edges_.push_back(edge);
      return;
    }
    auto attrs = read_attributes();
    auto label = attrs.find("label");
    if (label == attrs.end()) fail(line, "node " + quote_text(from) + " has no label");
    if (nodes_.count(from) != 0) fail(line, "node " + quote_text(from) + " defined twice");
    add_node(from, function, line, label->second.first, label->second.second);
  }

  /// "name" or "name":port or "name":port:compass; the compass point is ignored.
  std::string read_endpoint(std::string& port) {
    std::string name = read_id();
    port.clear();
    if (is_punct(':')) {
      advance();
      port = read_id();
      if (is_punct(':')) {
        advance();
        read_id();
      }
    }
    return name;
  }

  std::vector<Field> decode_record(const std::string& raw, int line) const {
    size_t begin = raw.find_first_not_of(" \t\n");
    size_t end = raw.find_last_not_of(" \t\n");
    if (begin == std::string::npos || raw[begin] != '{' || raw[end] != '}')
      fail(line, "label is not a record '{...}' (unbalanced braces?)");
    std::vector<Field> fields(1);
    std::string current;
    bool at_field_start = true;
    auto end_line = [&] {
      fields.back().lines.push_back(current);
      current.clear();
    };
    for (size_t i = begin + 1; i < end; ++i) {
      const char c = raw[i];
      if (c == '\\') {
        if (i + 1 >= end) fail(line, "label ends in a lone '\\'");
        const char e = raw[++i];
        if (e == 'l' || e == 'n' || e == 'r') {
          end_line();
        } else {
          current += e;
        }
        at_field_start = false;
      } else if (c == '|') {
        end_line();
        fields.emplace_back();
        at_field_start = true;
      } else if (c == '<' && at_field_start) {
        const size_t close = raw.find('>', i);
        if (close == std::string::npos || close >= end) fail(line, "unclosed port '<'");
        fields.back().port = raw.substr(i + 1, close - i - 1);
        i = close;
        at_field_start = false;
      } else if (c == '{' || c == '}' || c == '<' || c == '>') {
        fail(line, std::string("unescaped '") + c + "' in a record label (unbalanced braces?)");
      } else {
        current += c;
        if (c != ' ' && c != '\t') at_field_start = false;
      }
    }
    end_line();
    return fields;
  }

  static bool is_exit_port(const std::string& port) {
    return port.rfind("exit", 0) == 0 && port.rfind("exitpost", 0) != 0;
  }

  void add_node(const std::string& name, size_t function, int line, const std::string& raw,
                int label_line) {
    Kernel& kernel = functions_[function];
    Node node;
    node.function = function;
    node.line = line;
    bool open = false;
    auto open_block = [&] {
      BasicBlock block;
      block.id = static_cast<uint32_t>(kernel.blocks.size());
      block.name = node.blocks.empty() ? name : name + "/" + std::to_string(node.blocks.size());
      kernel.blocks.push_back(std::move(block));
      node.blocks.push_back(kernel.blocks.back().id);
      open = true;
    };
    for (const Field& field : decode_record(raw, label_line)) {
      const std::string& port = field.port;
      const bool exitpost = port.rfind("exitpost", 0) == 0;
      if (!port.empty() && port != "entry" && !exitpost && !is_exit_port(port))
        fail(label_line, "node " + quote_text(name) + ": unknown port <" + excerpt(port) + ">");
      if (exitpost || !open) open_block();
      const uint32_t block = node.blocks.back();
      if (!port.empty() && !node.ports.emplace(port, block).second)
        fail(label_line,
             "node " + quote_text(name) + ": port <" + excerpt(port) + "> appears twice");
      for (const std::string& raw_line : field.lines)
        add_instruction(function, block, raw_line, label_line, name);
      if (is_exit_port(port)) open = false;
    }
    // Consecutive blocks of one node are consecutive in the code: the later one is the
    // fall-through of the earlier one's guarded branch/exit.
    for (size_t k = 0; k + 1 < node.blocks.size(); ++k) {
      const BasicBlock& earlier = kernel.blocks[node.blocks[k]];
      if (earlier.insts.empty() || may_fall_through(earlier.insts.back()))
        kernel.add_edge(node.blocks[k], node.blocks[k + 1]);
    }
    nodes_.emplace(name, std::move(node));
  }

  void add_instruction(size_t function, uint32_t block, const std::string& raw_line, int line,
                       const std::string& node_name) {
    Kernel& kernel = functions_[function];
    std::string_view text = raw_line;
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string_view::npos) return;
    text.remove_prefix(first);
    if (text.rfind("/*", 0) == 0) {  // a "/*0008*/" address comment
      const size_t close = text.find("*/");
      if (close == std::string_view::npos)
        fail(line, "unclosed '/*' in node " + quote_text(node_name));
      text.remove_prefix(close + 2);
      const auto next = text.find_first_not_of(" \t");
      if (next == std::string_view::npos) return;
      text.remove_prefix(next);
    }
    const auto last = text.find_last_not_of(" \t");
    text = text.substr(0, last + 1);
    if (text.front() == '.' || text.back() == ':') return;  // directive or label
    uint64_t& count = instructions_[function];
    if (count >= input_limits::kMaxStaticInstructions)
      fail(line, "node " + quote_text(node_name) + ": more than " +
                     std::to_string(input_limits::kMaxStaticInstructions) +
                     " instructions in one function (the input limit)");
    try {
      kernel.blocks[block].insts.push_back(parse_sass(text, kInstructionBytes * count));
      ++count;
    } catch (const SassSyntaxError& e) {
      fail(line, "node " + quote_text(node_name) + ": " + excerpt(text) + ": column " +
                     std::to_string(e.column() + 1) + " of the instruction: " + e.what());
    } catch (const std::invalid_argument& e) {
      fail(line, "node " + quote_text(node_name) + ": " + excerpt(text) + ": " + e.what());
    }
  }

  const Node& find_node(const std::string& name, int line) const {
    auto it = nodes_.find(name);
    if (it == nodes_.end()) fail(line, "edge names unknown node " + quote_text(name));
    return it->second;
  }

  void resolve_edges() {
    for (const PendingEdge& edge : edges_) {
      const Node& from = find_node(edge.from, edge.line);
      const Node& to = find_node(edge.to, edge.line);
      if (from.function != to.function)
        fail(edge.line, "edge \"" + edge.from + "\" -> \"" + edge.to + "\" crosses functions");
      if (!edge.to_port.empty() && edge.to_port != "entry")
        fail(edge.line, "edge enters \"" + edge.to + "\" at <" + edge.to_port + ">, not <entry>");
      uint32_t source = from.blocks.back();
      if (!edge.from_port.empty()) {
        auto port = from.ports.find(edge.from_port);
        if (port == from.ports.end())
          fail(edge.line,
               "node " + quote_text(edge.from) + " has no port <" + excerpt(edge.from_port) + ">");
        source = port->second;
      }
      functions_[from.function].add_edge(source, to.blocks.front());
    }
  }

  std::string name_;
  std::string text_;
  size_t pos_ = 0;
  int line_ = 1;
  Token token_;
  std::vector<Kernel> functions_;
  std::vector<uint64_t> instructions_;  ///< per function, for PCs without recounting
  std::map<std::string, Node> nodes_;
  std::vector<PendingEdge> edges_;
};

}  // namespace

std::vector<Kernel> read_nvdisasm_dot_functions(std::istream& in, const std::string& name) {
  return DotReader(in, name).read();
}

std::vector<Kernel> read_nvdisasm_dot_functions(const std::string& path) {
  return DotReader(read_input(path, "nvdisasm CFG", input_limits::kMaxDotBytes), path).read();
}

Kernel read_nvdisasm_dot(std::istream& in, const std::string& name) {
  return std::move(read_nvdisasm_dot_functions(in, name).front());
}

Kernel read_nvdisasm_dot(const std::string& path) {
  return std::move(read_nvdisasm_dot_functions(path).front());
}

}  // namespace warpreg
