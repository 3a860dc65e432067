package bullseye.testee;

import java.util.List;
import java.util.Map;

/** Typed access to a case's input object; every failure is a CaseError with a readable reason. */
final class Input {
    private Input() {}

    static final class CaseError extends RuntimeException {
        private static final long serialVersionUID = 1L;
        CaseError(String message) { super(message); }
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(Object v, String what) {
        if (!(v instanceof Map)) throw new CaseError(what + " must be an object");
        return (Map<String, Object>) v;
    }

    static Object required(Map<String, Object> m, String key) {
        if (!m.containsKey(key)) throw new CaseError("missing \"" + key + "\"");
        return m.get(key);
    }

    static double number(Object v, String what) {
        if (v instanceof Long) return (double) (Long) v;
        if (v instanceof Double) return (Double) v;
        throw new CaseError(what + " must be a number");
    }

    static double number(Map<String, Object> m, String key) {
        return number(required(m, key), "\"" + key + "\"");
    }

    static String string(Map<String, Object> m, String key) {
        Object v = required(m, key);
        if (!(v instanceof String)) throw new CaseError("\"" + key + "\" must be a string");
        return (String) v;
    }

    @SuppressWarnings("unchecked")
    static List<Object> array(Object v, String what) {
        if (!(v instanceof List)) throw new CaseError(what + " must be an array");
        return (List<Object>) v;
    }

    static List<Object> array(Map<String, Object> m, String key) {
        return array(required(m, key), "\"" + key + "\"");
    }

    /** An array of exactly n numbers (n < 0: any length). */
    static double[] numbers(Object v, int n, String what) {
        List<Object> list = array(v, what);
        if (n >= 0 && list.size() != n) throw new CaseError(what + " must have " + n + " numbers");
        double[] out = new double[list.size()];
        for (int i = 0; i < out.length; i++) out[i] = number(list.get(i), what + "[" + i + "]");
        return out;
    }

    static double[] numbers(Map<String, Object> m, String key, int n) {
        return numbers(required(m, key), n, "\"" + key + "\"");
    }
}
