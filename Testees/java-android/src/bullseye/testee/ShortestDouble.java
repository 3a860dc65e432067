package bullseye.testee;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Shortest round-trip formatting of a double.
 *
 * Java 17's Double.toString always round-trips but is not always the shortest (JDK-4511638, fixed
 * in Java 19), so this searches for the fewest significant digits p (1..17) for which a p-digit
 * decimal parses back to the same bits. The candidates at p digits are the exact value rounded
 * down and rounded up to p digits; whenever a p-digit decimal round-trips, one of these two does,
 * and if p digits work so do p+1, which allows a binary search over p. Among two candidates that
 * both work, the one nearer the exact value wins (ties: even last digit).
 */
public final class ShortestDouble {
    private ShortestDouble() {}

    private static final MathContext[] FLOOR = new MathContext[18];
    static {
        for (int p = 1; p <= 17; p++) FLOOR[p] = new MathContext(p, RoundingMode.FLOOR);
    }

    public static String toString(double d) {
        StringBuilder sb = new StringBuilder(24);
        append(sb, d);
        return sb.toString();
    }

    public static void append(StringBuilder sb, double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) throw new IllegalArgumentException("not finite: " + d);
        if (d == 0) { sb.append((Double.doubleToRawLongBits(d) < 0) ? "-0.0" : "0.0"); return; }
        if (d < 0) { sb.append('-'); d = -d; }
        BigDecimal best = shortest(d);
        format(sb, best);
    }

    /** The shortest decimal that parses to d (d finite, positive). */
    static BigDecimal shortest(double d) {
        BigDecimal exact = new BigDecimal(d);
        // Upper bound on the digit count: Java's own output round-trips.
        int hiP = Math.min(17, significantDigits(Double.toString(d)));
        int loP = 1;
        BigDecimal found = null;
        if (hiP > 1) {
            // Usually Java's digit count is already the shortest: one probe settles it.
            BigDecimal shorter = candidate(exact, d, hiP - 1);
            if (shorter == null) return candidate(exact, d, hiP);
            found = shorter;
            hiP = hiP - 1;
        }
        while (loP < hiP) {
            int mid = (loP + hiP) >>> 1;
            BigDecimal c = candidate(exact, d, mid);
            if (c != null) { hiP = mid; found = c; } else { loP = mid + 1; }
        }
        if (found == null || found.precision() > hiP) found = candidate(exact, d, hiP);
        if (found == null) found = candidate(exact, d, 17); // cannot happen; defensive
        return found;
    }

    /** A p-digit decimal that parses back to d, the nearer one if both neighbours do; else null. */
    private static BigDecimal candidate(BigDecimal exact, double d, int p) {
        BigDecimal down = exact.round(FLOOR[p]);
        if (down.compareTo(exact) == 0) return down; // exact value has at most p digits
        BigDecimal up = down.add(BigDecimal.ONE.scaleByPowerOfTen(-down.scale()));
        boolean downOk = parsesTo(down, d);
        boolean upOk = parsesTo(up, d);
        if (downOk && upOk) {
            int cmp = exact.subtract(down).compareTo(up.subtract(exact));
            if (cmp < 0) return down;
            if (cmp > 0) return up;
            return down.unscaledValue().testBit(0) ? up : down;
        }
        if (downOk) return down;
        if (upOk) return up;
        return null;
    }

    private static boolean parsesTo(BigDecimal b, double d) {
        return Double.doubleToRawLongBits(Double.parseDouble(b.toString())) == Double.doubleToRawLongBits(d);
    }

    private static int significantDigits(String javaString) {
        // Forms: "123.456", "1.0E-5", "0.00123"
        int e = javaString.indexOf('E');
        String mant = e >= 0 ? javaString.substring(0, e) : javaString;
        StringBuilder digits = new StringBuilder();
        for (int i = 0; i < mant.length(); i++) {
            char c = mant.charAt(i);
            if (c >= '0' && c <= '9') digits.append(c);
        }
        int start = 0, end = digits.length();
        while (start < end && digits.charAt(start) == '0') start++;
        while (end > start && digits.charAt(end - 1) == '0') end--;
        return Math.max(1, end - start);
    }

    /** Plain notation for decimal exponents in [-7, 21), scientific ("1.5e-8") otherwise. */
    private static void format(StringBuilder sb, BigDecimal b) {
        b = b.stripTrailingZeros();
        String digits = b.unscaledValue().toString();
        int n = digits.length();
        int point = n - b.scale(); // value = 0.digits * 10^point
        if (point > 0 && point <= 21) {
            if (point >= n) {
                sb.append(digits);
                for (int i = n; i < point; i++) sb.append('0');
                sb.append(".0");
            } else {
                sb.append(digits, 0, point).append('.').append(digits, point, n);
            }
        } else if (point <= 0 && point > -6) {
            sb.append("0.");
            for (int i = point; i < 0; i++) sb.append('0');
            sb.append(digits);
        } else {
            sb.append(digits.charAt(0));
            if (n > 1) sb.append('.').append(digits, 1, n);
            sb.append('e').append(point - 1);
        }
    }
}
