package bullseye.testee;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small, strict JSON reader and writer.
 *
 * Values: {@code null} (JSON null), Boolean, Long (an integer token without fraction or exponent
 * that fits a long), Double (every other number, parsed with Double.parseDouble on the exact token,
 * which rounds correctly), String, List&lt;Object&gt;, LinkedHashMap&lt;String,Object&gt; (key order kept).
 * Doubles are written with the shortest digits that round-trip (see {@link ShortestDouble}).
 */
public final class Json {
    private Json() {}

    public static final class ParseException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        public ParseException(String message) { super(message); }
    }

    // ---------------------------------------------------------------- reader

    public static Object parse(String text) {
        Reader r = new Reader(text);
        r.skipWhitespace();
        Object value = r.readValue(0);
        r.skipWhitespace();
        if (r.pos != text.length()) throw r.fail("unexpected text after the value");
        return value;
    }

    private static final int MAX_DEPTH = 100_000;

    private static final class Reader {
        final String s;
        int pos;

        Reader(String s) { this.s = s; }

        ParseException fail(String why) {
            return new ParseException(why + " at offset " + pos);
        }

        void skipWhitespace() {
            while (pos < s.length()) {
                char c = s.charAt(pos);
                if (c == ' ' || c == '\t' || c == '\n' || c == '\r') pos++; else break;
            }
        }

        Object readValue(int depth) {
            if (depth > MAX_DEPTH) throw fail("nesting too deep");
            if (pos >= s.length()) throw fail("unexpected end of input");
            char c = s.charAt(pos);
            switch (c) {
                case '{': return readObject(depth);
                case '[': return readArray(depth);
                case '"': return readString();
                case 't': expectWord("true"); return Boolean.TRUE;
                case 'f': expectWord("false"); return Boolean.FALSE;
                case 'n': expectWord("null"); return null;
                default:
                    if (c == '-' || (c >= '0' && c <= '9')) return readNumber();
                    throw fail("unexpected character '" + c + "'");
            }
        }

        void expectWord(String w) {
            if (!s.startsWith(w, pos)) throw fail("expected " + w);
            pos += w.length();
        }

        Map<String, Object> readObject(int depth) {
            pos++; // {
            LinkedHashMap<String, Object> map = new LinkedHashMap<>();
            skipWhitespace();
            if (pos < s.length() && s.charAt(pos) == '}') { pos++; return map; }
            while (true) {
                skipWhitespace();
                if (pos >= s.length() || s.charAt(pos) != '"') throw fail("expected a string key");
                String key = readString();
                skipWhitespace();
                if (pos >= s.length() || s.charAt(pos) != ':') throw fail("expected ':'");
                pos++;
                skipWhitespace();
                map.put(key, readValue(depth + 1));
                skipWhitespace();
                if (pos >= s.length()) throw fail("unterminated object");
                char c = s.charAt(pos++);
                if (c == '}') return map;
                if (c != ',') { pos--; throw fail("expected ',' or '}'"); }
            }
        }

        List<Object> readArray(int depth) {
            pos++; // [
            ArrayList<Object> list = new ArrayList<>();
            skipWhitespace();
            if (pos < s.length() && s.charAt(pos) == ']') { pos++; return list; }
            while (true) {
                skipWhitespace();
                list.add(readValue(depth + 1));
                skipWhitespace();
                if (pos >= s.length()) throw fail("unterminated array");
                char c = s.charAt(pos++);
                if (c == ']') return list;
                if (c != ',') { pos--; throw fail("expected ',' or ']'"); }
            }
        }

        String readString() {
            pos++; // opening quote
            int start = pos;
            // Fast path: no escapes.
            while (pos < s.length()) {
                char c = s.charAt(pos);
                if (c == '"') { String out = s.substring(start, pos); pos++; return out; }
                if (c == '\\') break;
                if (c < 0x20) throw fail("control character in string");
                pos++;
            }
            StringBuilder sb = new StringBuilder(s.length() - start);
            sb.append(s, start, pos);
            while (true) {
                if (pos >= s.length()) throw fail("unterminated string");
                char c = s.charAt(pos++);
                if (c == '"') return sb.toString();
                if (c < 0x20) { pos--; throw fail("control character in string"); }
                if (c != '\\') { sb.append(c); continue; }
                if (pos >= s.length()) throw fail("unterminated escape");
                char e = s.charAt(pos++);
                switch (e) {
                    case '"': sb.append('"'); break;
                    case '\\': sb.append('\\'); break;
                    case '/': sb.append('/'); break;
                    case 'b': sb.append('\b'); break;
                    case 'f': sb.append('\f'); break;
                    case 'n': sb.append('\n'); break;
                    case 'r': sb.append('\r'); break;
                    case 't': sb.append('\t'); break;
                    case 'u': sb.append(readHex4()); break; // surrogate pairs combine naturally in UTF-16
                    default: pos--; throw fail("bad escape '\\" + e + "'");
                }
            }
        }

        char readHex4() {
            if (pos + 4 > s.length()) throw fail("short \\u escape");
            int v = 0;
            for (int i = 0; i < 4; i++) {
                int d = Character.digit(s.charAt(pos + i), 16);
                if (d < 0) throw fail("bad \\u escape");
                v = v * 16 + d;
            }
            pos += 4;
            return (char) v;
        }

        Object readNumber() {
            int start = pos;
            boolean integral = true;
            if (s.charAt(pos) == '-') pos++;
            if (pos >= s.length()) throw fail("bad number");
            char c = s.charAt(pos);
            if (c == '0') {
                pos++;
            } else if (c >= '1' && c <= '9') {
                while (pos < s.length() && isDigit(s.charAt(pos))) pos++;
            } else {
                throw fail("bad number");
            }
            if (pos < s.length() && s.charAt(pos) == '.') {
                integral = false;
                pos++;
                int digits = pos;
                while (pos < s.length() && isDigit(s.charAt(pos))) pos++;
                if (pos == digits) throw fail("bad number: no digits after '.'");
            }
            if (pos < s.length() && (s.charAt(pos) == 'e' || s.charAt(pos) == 'E')) {
                integral = false;
                pos++;
                if (pos < s.length() && (s.charAt(pos) == '+' || s.charAt(pos) == '-')) pos++;
                int digits = pos;
                while (pos < s.length() && isDigit(s.charAt(pos))) pos++;
                if (pos == digits) throw fail("bad number: no exponent digits");
            }
            String token = s.substring(start, pos);
            if (integral && !token.equals("-0")) {
                // Up to 18 digits always fit a long; longer tokens may not.
                if (token.length() <= 18) return Long.parseLong(token);
                try {
                    return Long.parseLong(token);
                } catch (NumberFormatException tooBig) {
                    // falls through to a Double
                }
            }
            double d = Double.parseDouble(token); // correctly rounded
            if (Double.isInfinite(d)) throw fail("number out of Double range: " + token);
            return d;
        }

        static boolean isDigit(char c) { return c >= '0' && c <= '9'; }
    }

    // ---------------------------------------------------------------- writer

    /** Thrown when a value cannot be written as JSON (NaN, Infinity, an unknown type). */
    public static final class WriteException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        public WriteException(String message) { super(message); }
    }

    public static String write(Object value) {
        StringBuilder sb = new StringBuilder();
        write(sb, value);
        return sb.toString();
    }

    public static void write(StringBuilder sb, Object value) {
        if (value == null) {
            sb.append("null");
        } else if (value instanceof String) {
            writeString(sb, (String) value);
        } else if (value instanceof Boolean) {
            sb.append(((Boolean) value) ? "true" : "false");
        } else if (value instanceof Long || value instanceof Integer) {
            sb.append(((Number) value).longValue());
        } else if (value instanceof Double) {
            writeDouble(sb, (Double) value);
        } else if (value instanceof Float) {
            writeDouble(sb, (double) (Float) value); // widened exactly
        } else if (value instanceof Map) {
            sb.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
                if (!first) sb.append(',');
                first = false;
                writeString(sb, (String) e.getKey());
                sb.append(':');
                write(sb, e.getValue());
            }
            sb.append('}');
        } else if (value instanceof List) {
            sb.append('[');
            boolean first = true;
            for (Object o : (List<?>) value) {
                if (!first) sb.append(',');
                first = false;
                write(sb, o);
            }
            sb.append(']');
        } else {
            throw new WriteException("cannot write a " + value.getClass().getSimpleName());
        }
    }

    public static void writeDouble(StringBuilder sb, double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) throw new WriteException("not a finite number: " + d);
        ShortestDouble.append(sb, d);
    }

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    public static void writeString(StringBuilder sb, String s) {
        sb.append('"');
        int n = s.length();
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"': sb.append("\\\""); break;
                case '\\': sb.append("\\\\"); break;
                case '\n': sb.append("\\n"); break;
                case '\r': sb.append("\\r"); break;
                case '\t': sb.append("\\t"); break;
                case '\b': sb.append("\\b"); break;
                case '\f': sb.append("\\f"); break;
                default:
                    if (c < 0x20) {
                        appendUnicodeEscape(sb, c);
                    } else if (Character.isHighSurrogate(c)) {
                        if (i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                            sb.append(c).append(s.charAt(i + 1)); // a valid pair: UTF-8 on output
                            i++;
                        } else {
                            appendUnicodeEscape(sb, c); // lone surrogate: not encodable in UTF-8
                        }
                    } else if (Character.isLowSurrogate(c)) {
                        appendUnicodeEscape(sb, c);
                    } else {
                        sb.append(c);
                    }
            }
        }
        sb.append('"');
    }

    private static void appendUnicodeEscape(StringBuilder sb, char c) {
        sb.append("\\u").append(HEX[(c >> 12) & 15]).append(HEX[(c >> 8) & 15])
          .append(HEX[(c >> 4) & 15]).append(HEX[c & 15]);
    }
}
