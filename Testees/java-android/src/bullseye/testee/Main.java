package bullseye.testee;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Bullseye conformance protocol v1 (JSON Lines on stdin/stdout) for the seed-001 Android profile. */
public final class Main {
    private Main() {}

    static final String NAME = "java-android (seed 001 Android profile) 1.0";

    /** What the code below does, axis by axis (see README.md for the reasons). */
    static Map<String, String> defaultSemantics() {
        LinkedHashMap<String, String> s = new LinkedHashMap<>();
        s.put("boundary", "inclusive");
        s.put("precision", "float32-native");
        s.put("nms_overlap", "greater");
        s.put("nms_classes", "agnostic");
        s.put("nms_order", "by-score");
        s.put("nms_iou", "union-float32");
        s.put("input_mapping", "letterbox-unrounded");
        s.put("decode_layout", "seed-001");
        s.put("decode_threshold", "greater-or-equal");
        s.put("decode_precision", "float32");
        return s;
    }

    private static final String USAGE =
        "usage: run.sh [--declare axis=value[,axis=value...]]...\n"
        + "  --declare  override what the ready message declares (an empty value leaves the axis out)\n";

    private static volatile int exitCode = 0;

    public static void main(String[] args) throws InterruptedException {
        Map<String, String> semantics = defaultSemantics();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            String spec;
            if (a.equals("--declare") && i + 1 < args.length) {
                spec = args[++i];
            } else if (a.startsWith("--declare=")) {
                spec = a.substring("--declare=".length());
            } else if (a.equals("-h") || a.equals("--help")) {
                System.err.print(USAGE);
                System.exit(0);
                return;
            } else {
                System.err.print("unknown argument: " + a + "\n" + USAGE);
                System.exit(2);
                return;
            }
            for (String pair : spec.split(",")) {
                if (pair.isBlank()) continue;
                int eq = pair.indexOf('=');
                if (eq <= 0) {
                    System.err.print("bad --declare entry \"" + pair + "\" (want axis=value)\n" + USAGE);
                    System.exit(2);
                    return;
                }
                String axis = pair.substring(0, eq).trim(), value = pair.substring(eq + 1).trim();
                if (value.isEmpty()) semantics.remove(axis); else semantics.put(axis, value);
            }
        }
        String ready = readyLine(semantics);
        // A big stack so that deeply nested echo input neither overflows the reader nor the writer.
        Thread loop = new Thread(null, () -> serve(ready), "protocol", 1L << 29);
        loop.start();
        loop.join();
        System.exit(exitCode);
    }

    static String readyLine(Map<String, String> semantics) {
        LinkedHashMap<String, Object> r = new LinkedHashMap<>();
        r.put("ready", true);
        r.put("name", NAME);
        r.put("stages", List.copyOf(Stages.NAMES));
        r.put("semantics", new LinkedHashMap<String, Object>(semantics));
        r.put("batch", true);
        return Json.write(r);
    }

    private static void serve(String ready) {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8), 1 << 16);
        Writer out = new BufferedWriter(
            new OutputStreamWriter(new FileOutputStream(FileDescriptor.out), StandardCharsets.UTF_8), 1 << 16);
        try {
            String line;
            while ((line = in.readLine()) != null) {
                String reply;
                try {
                    reply = handle(line, ready);
                } catch (Throwable t) { // never die on one line
                    log("internal error: " + t);
                    reply = null;
                }
                if (reply == STOP) break;
                if (reply != null) {
                    out.write(reply);
                    out.write('\n');
                }
                if (!in.ready()) out.flush();
            }
            out.flush();
        } catch (IOException e) {
            log("I/O: " + e.getMessage());
            exitCode = 0; // the harness closed the pipes: nothing left to answer
        }
    }

    private static final String STOP = new String("stop");
    private static final Pattern SEQ = Pattern.compile("\"seq\"\\s*:\\s*(-?[0-9]+)");

    static String handle(String line, String ready) {
        if (line.isBlank()) return null;
        Object parsed;
        try {
            parsed = Json.parse(line);
        } catch (Json.ParseException | StackOverflowError e) {
            String why = e instanceof StackOverflowError ? "nesting too deep" : e.getMessage();
            Matcher m = SEQ.matcher(line);
            if (m.find()) return "{\"seq\":" + m.group(1) + ",\"error\":" + Json.write("bad request line: " + why) + "}";
            log("bad request line (no seq): " + why);
            return null;
        }
        if (!(parsed instanceof Map)) {
            log("request is not a JSON object");
            return null;
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> msg = (Map<String, Object>) parsed;
        Object cmd = msg.get("cmd");
        Object seq = msg.get("seq");
        boolean hasSeq = seq instanceof Long || seq instanceof Double;
        if ("start".equals(cmd)) {
            Object version = msg.get("version");
            if (!(version instanceof Long && (Long) version == 1L)) log("start with version " + version + "; speaking version 1");
            return ready;
        }
        if ("stop".equals(cmd)) return STOP;
        if (!hasSeq) {
            log("request without a numeric seq ignored: cmd=" + cmd);
            return null;
        }
        String seqText = Json.write(seq);
        if ("run".equals(cmd)) {
            Object stage = msg.get("stage");
            if (!(stage instanceof String)) return answerLine(seqText, error("\"stage\" must be a string"));
            if (!msg.containsKey("input")) return answerLine(seqText, error("missing \"input\""));
            return answerLine(seqText, runCase((String) stage, msg.get("input")));
        }
        if ("run_batch".equals(cmd)) {
            Object stage = msg.get("stage");
            Object cases = msg.get("cases");
            if (!(stage instanceof String)) return answerLine(seqText, error("\"stage\" must be a string"));
            if (!(cases instanceof List)) return answerLine(seqText, error("\"cases\" must be an array"));
            StringBuilder sb = new StringBuilder(256);
            sb.append("{\"seq\":").append(seqText).append(",\"answers\":[");
            boolean first = true;
            for (Object c : (List<?>) cases) {
                if (!first) sb.append(',');
                first = false;
                String fragment;
                if (c instanceof Map && ((Map<?, ?>) c).containsKey("input")) {
                    fragment = runCase((String) stage, ((Map<?, ?>) c).get("input"));
                } else {
                    fragment = error("a case must be an object with \"input\"");
                }
                sb.append('{').append(fragment).append('}');
            }
            sb.append("]}");
            return sb.toString();
        }
        return answerLine(seqText, error("unknown cmd " + Json.write(cmd)));
    }

    private static String answerLine(String seqText, String fragment) {
        return "{\"seq\":" + seqText + "," + fragment + "}";
    }

    /** Runs one case; returns the answer's keys as JSON text: "output":…, "skipped":… or "error":…. */
    static String runCase(String stage, Object input) {
        try {
            Stages.Answer a = Stages.run(stage, input);
            if (a.skipped != null) return "\"skipped\":" + Json.write(a.skipped);
            StringBuilder sb = new StringBuilder(64);
            sb.append("\"output\":");
            Json.write(sb, a.output);
            return sb.toString();
        } catch (Input.CaseError e) {
            return error(e.getMessage());
        } catch (Json.WriteException e) {
            return error("answer cannot be written as JSON: " + e.getMessage());
        } catch (StackOverflowError e) {
            return error("input nested too deeply");
        } catch (RuntimeException e) {
            return error(e.toString());
        }
    }

    private static String error(String why) {
        return "\"error\":" + Json.write(why == null ? "error" : why);
    }

    static void log(String s) {
        System.err.println("java-android: " + s);
    }
}
