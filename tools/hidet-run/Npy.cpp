//===- Npy.cpp - NumPy .npy files for hidet-run ---------------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#include "Npy.h"

#include <cstring>
#include <string_view>

using namespace hidet::run;

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicSize = sizeof(kMagic) - 1;
/// NumPy aligns the data to this many bytes.
constexpr size_t kAlignment = 64;

struct NpyType {
  DType dtype;
  const char *descr;
  bool isUnsigned;
};

/// The spellings read; the first one of each dtype is the one written.
/// Unsigned integers stand for bits of their width (Tensor::isUnsigned).
const NpyType npyTypes[] = {
    {DType::F32, "<f4", false},  {DType::F16, "<f2", false},
    {DType::BF16, "<V2", false}, {DType::BF16, "|V2", false},
    {DType::F64, "<f8", false},  {DType::I32, "<i4", false},
    {DType::I64, "<i8", false},  {DType::I8, "|i1", false},
    {DType::I1, "|b1", false},   {DType::I8, "|u1", true},
    {DType::BF16, "<u2", true},  {DType::I32, "<u4", true},
    {DType::I64, "<u8", true},
};

/// A parser for the header: a Python dict literal whose values are strings,
/// booleans and tuples of integers, as numpy.lib.format writes it.
class HeaderParser {
public:
  HeaderParser(std::string_view text, std::string &error)
      : text(text), error(error) {}

  bool parse(std::string &descr, bool &fortranOrder,
             std::vector<int64_t> &shape) {
    bool sawDescr = false, sawOrder = false, sawShape = false;
    if (!expect('{'))
      return false;
    while (true) {
      skipSpace();
      if (consume('}'))
        break;
      std::string key;
      if (!parseString(key) || !expect(':'))
        return false;
      skipSpace();
      if (key == "descr") {
        if (peek() == '[')
          return fail("structured arrays (a list as 'descr') are not "
                      "supported");
        if (!parseString(descr))
          return false;
        sawDescr = true;
      } else if (key == "fortran_order") {
        if (!parseBool(fortranOrder))
          return false;
        sawOrder = true;
      } else if (key == "shape") {
        if (!parseShape(shape))
          return false;
        sawShape = true;
      } else {
        return fail("unexpected key '" + key + "' in the header");
      }
      skipSpace();
      if (consume('}'))
        break;
      if (!expect(','))
        return false;
    }
    if (!sawDescr || !sawOrder || !sawShape)
      return fail("the header lacks '" +
                  std::string(!sawDescr   ? "descr"
                              : !sawOrder ? "fortran_order"
                                          : "shape") +
                  "'");
    skipSpace();
    if (pos != text.size())
      return fail("unexpected text after the header's dict");
    return true;
  }

private:
  bool fail(const std::string &message) {
    error = message;
    return false;
  }

  char peek() const { return pos < text.size() ? text[pos] : '\0'; }

  void skipSpace() {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t' ||
                                 text[pos] == '\n' || text[pos] == '\r'))
      ++pos;
  }

  bool consume(char c) {
    if (peek() != c)
      return false;
    ++pos;
    return true;
  }

  bool expect(char c) {
    skipSpace();
    if (consume(c))
      return true;
    return fail(std::string("malformed header: expected '") + c + "' at " +
                "offset " + std::to_string(pos) + " of '" + std::string(text) +
                "'");
  }

  bool parseString(std::string &out) {
    char quote = peek();
    if (quote != '\'' && quote != '"')
      return fail("malformed header: expected a string at offset " +
                  std::to_string(pos));
    size_t end = text.find(quote, pos + 1);
    if (end == std::string_view::npos)
      return fail("malformed header: unterminated string");
    out = std::string(text.substr(pos + 1, end - pos - 1));
    pos = end + 1;
    return true;
  }

  bool parseBool(bool &out) {
    for (auto [word, value] : {std::pair{"True", true}, {"False", false}}) {
      size_t length = std::strlen(word);
      if (text.substr(pos, length) == word) {
        pos += length;
        out = value;
        return true;
      }
    }
    return fail("malformed header: 'fortran_order' is not True or False");
  }

  /// A tuple of non-negative integers: `()`, `(5,)`, `(3, 4)`. Python 2
  /// wrote longs with an `L`.
  bool parseShape(std::vector<int64_t> &shape) {
    shape.clear();
    if (!consume('('))
      return fail("malformed header: 'shape' is not a tuple");
    while (true) {
      skipSpace();
      if (consume(')'))
        return true;
      size_t start = pos;
      int64_t value = 0;
      while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
        if (value > (kMaxTensorElements - (text[pos] - '0')) / 10)
          return fail("an extent of 'shape' is too large");
        value = value * 10 + (text[pos++] - '0');
      }
      if (pos == start)
        return fail("malformed header: 'shape' holds something other than "
                    "non-negative integers");
      consume('L');
      shape.push_back(value);
      skipSpace();
      if (consume(')'))
        return true;
      if (!consume(','))
        return fail("malformed header: expected ',' or ')' in 'shape'");
    }
  }

  std::string_view text;
  std::string &error;
  size_t pos = 0;
};

uint32_t readLittleEndian(const unsigned char *bytes, size_t count) {
  uint32_t value = 0;
  for (size_t i = count; i-- > 0;)
    value = (value << 8) | bytes[i];
  return value;
}

} // namespace

bool hidet::run::decodeNpy(const unsigned char *bytes, size_t size,
                           Tensor &tensor, std::string &error) {
  if (size < kMagicSize || std::memcmp(bytes, kMagic, kMagicSize) != 0) {
    error = "not a .npy file: it does not start with \\x93NUMPY";
    return false;
  }
  if (size < kMagicSize + 2) {
    error = "truncated .npy file: it ends in the version";
    return false;
  }
  unsigned major = bytes[kMagicSize], minor = bytes[kMagicSize + 1];
  if (major < 1 || major > 3) {
    error = "unsupported .npy format version " + std::to_string(major) + "." +
            std::to_string(minor) + " (versions 1 to 3 are read)";
    return false;
  }
  // Version 1 has a 2-byte header length, later versions 4 bytes.
  size_t lengthSize = major == 1 ? 2 : 4;
  size_t prefix = kMagicSize + 2 + lengthSize;
  if (size < prefix) {
    error = "truncated .npy file: it ends in the header length";
    return false;
  }
  size_t headerSize = readLittleEndian(bytes + kMagicSize + 2, lengthSize);
  if (size - prefix < headerSize) {
    error = "truncated .npy file: the header takes " +
            std::to_string(headerSize) + " bytes but only " +
            std::to_string(size - prefix) + " follow";
    return false;
  }
  std::string_view header(reinterpret_cast<const char *>(bytes + prefix),
                          headerSize);
  std::string descr;
  bool fortranOrder = false;
  std::vector<int64_t> shape;
  if (!HeaderParser(header, error).parse(descr, fortranOrder, shape))
    return false;

  const NpyType *type = nullptr;
  for (const NpyType &candidate : npyTypes)
    if (descr == candidate.descr)
      type = &candidate;
  if (!type) {
    if (!descr.empty() && descr[0] == '>')
      error = "big-endian data ('" + descr +
              "') is not supported; save it little-endian";
    else
      error = "element type '" + descr +
              "' is none of hidet's (f32 '<f4', f16 '<f2', bf16 '<V2', f64 "
              "'<f8', i32 '<i4', i64 '<i8', i8 '|i1', i1 '|b1') nor an "
              "unsigned integer ('|u1', '<u2', '<u4', '<u8')";
    return false;
  }
  int64_t count = 0;
  if (!countElements(shape, count)) {
    error = "the shape holds more than 2^40 elements";
    return false;
  }
  // A Fortran-order array of at most one dimension above 1 has the same
  // layout in C order.
  int64_t bigDims = 0;
  for (int64_t dim : shape)
    bigDims += dim > 1;
  if (fortranOrder && bigDims > 1) {
    error = "Fortran-order data is not supported; save a C-order array "
            "(numpy.ascontiguousarray)";
    return false;
  }
  size_t dataSize = static_cast<size_t>(count) * getDTypeSize(type->dtype);
  size_t available = size - prefix - headerSize;
  if (available != dataSize) {
    error = std::string(available < dataSize ? "truncated" : "malformed") +
            " .npy file: " + std::to_string(count) + " elements of '" + descr +
            "' take " + std::to_string(dataSize) + " bytes but " +
            std::to_string(available) + " follow the header";
    return false;
  }
  tensor.dtype = type->dtype;
  tensor.isUnsigned = type->isUnsigned;
  tensor.shape = std::move(shape);
  tensor.fileType = "'" + descr + "'";
  const unsigned char *data = bytes + prefix + headerSize;
  tensor.data.assign(data, data + dataSize);
  return true;
}

std::string hidet::run::encodeNpyHeader(DType dtype,
                                        const std::vector<int64_t> &shape) {
  const char *descr = "";
  for (const NpyType &type : npyTypes) {
    if (type.dtype == dtype && !type.isUnsigned) {
      descr = type.descr;
      break;
    }
  }
  std::string dims;
  for (size_t i = 0; i < shape.size(); ++i)
    dims += (i ? ", " : "") + std::to_string(shape[i]);
  if (shape.size() == 1)
    dims += ",";
  std::string dict = std::string("{'descr': '") + descr +
                     "', 'fortran_order': False, 'shape': (" + dims + "), }";
  // NumPy's padding: spaces and a newline up to the alignment, at least one
  // character of padding (the newline).
  auto padded = [&](size_t prefix) {
    size_t used = prefix + dict.size() + 1;
    return dict.size() + 1 + (kAlignment - used % kAlignment) % kAlignment;
  };
  unsigned version = 1;
  size_t headerSize = padded(kMagicSize + 2 + 2);
  if (headerSize > 0xffff) {
    version = 2;
    headerSize = padded(kMagicSize + 2 + 4);
  }
  std::string out(kMagic, kMagicSize);
  out += static_cast<char>(version);
  out += '\0';
  for (size_t i = 0; i < (version == 1 ? 2u : 4u); ++i)
    out += static_cast<char>((headerSize >> (8 * i)) & 0xff);
  out += dict;
  out.append(headerSize - dict.size() - 1, ' ');
  out += '\n';
  return out;
}
