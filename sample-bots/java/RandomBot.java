// A tarneeb bot in Java that plays a random legal move: the whole protocol (protocol.md) in one
// file, standard library only (Java 11 or later).
//
// Run it without a build step:   java sample-bots/java/RandomBot.java
// or compile once (starts faster): javac -d /tmp/rb sample-bots/java/RandomBot.java
//                                  java -cp /tmp/rb RandomBot
//
// It answers `hello` (and `new_game`, declaring `multi_game`) with its name, answers each
// `request` with one of its `legal` moves and the request's `id`, ignores every other message,
// and exits when stdin ends. Replies go to stdout, one line each, flushed; diagnostics go to
// stderr, which the referee logs.

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

public class RandomBot {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        // autoflush off: every reply is flushed by hand, the step a bot most often forgets.
        PrintStream out = new PrintStream(System.out, false, "UTF-8");
        Random rng = new Random();
        String line;
        while ((line = in.readLine()) != null) {
            Map<?, ?> msg = (Map<?, ?>) new Json(line).value();
            Object type = msg.get("type");
            if ("hello".equals(type) || "new_game".equals(type)) {
                // The referee's seed makes the bot's choices reproducible with the game.
                rng = new Random(((Number) msg.get("seed")).longValue());
                Map<?, ?> game = (Map<?, ?>) msg.get("game");
                if (game != null) {
                    System.err.println("playing " + game.get("name") + " in seat " + msg.get("seat"));
                }
                out.print("{\"type\":\"hello\",\"name\":\"java-random\",\"version\":\"1.0\",\"multi_game\":true}\n");
                out.flush();
            } else if ("request".equals(type)) {
                List<?> legal = (List<?>) msg.get("legal");
                String move = (String) legal.get(rng.nextInt(legal.size()));
                long id = ((Number) msg.get("id")).longValue();
                out.print("{\"type\":\"move\",\"id\":" + id + ",\"move\":" + Json.quote(move) + "}\n");
                out.flush();
            }
        }
    }

    /** A small JSON reader: objects become maps, arrays lists, numbers Long or Double. */
    static final class Json {
        private final String s;
        private int i;

        Json(String s) {
            this.s = s;
        }

        Object value() {
            skip();
            char c = s.charAt(i);
            switch (c) {
                case '{': {
                    Map<String, Object> m = new LinkedHashMap<>();
                    i++;
                    skip();
                    if (s.charAt(i) == '}') {
                        i++;
                        return m;
                    }
                    while (true) {
                        skip();
                        String k = string();
                        skip();
                        i++; // ':'
                        m.put(k, value());
                        skip();
                        if (s.charAt(i++) == '}') {
                            return m;
                        }
                    }
                }
                case '[': {
                    List<Object> l = new ArrayList<>();
                    i++;
                    skip();
                    if (s.charAt(i) == ']') {
                        i++;
                        return l;
                    }
                    while (true) {
                        l.add(value());
                        skip();
                        if (s.charAt(i++) == ']') {
                            return l;
                        }
                    }
                }
                case '"':
                    return string();
                case 't':
                    i += 4;
                    return Boolean.TRUE;
                case 'f':
                    i += 5;
                    return Boolean.FALSE;
                case 'n':
                    i += 4;
                    return null;
                default: {
                    int start = i;
                    while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
                        i++;
                    }
                    String num = s.substring(start, i);
                    if (num.contains(".") || num.contains("e") || num.contains("E")) {
                        return Double.parseDouble(num);
                    }
                    return Long.parseLong(num);
                }
            }
        }

        private String string() {
            StringBuilder b = new StringBuilder();
            i++; // opening quote
            while (true) {
                char c = s.charAt(i++);
                if (c == '"') {
                    return b.toString();
                }
                if (c != '\\') {
                    b.append(c);
                    continue;
                }
                char e = s.charAt(i++);
                switch (e) {
                    case 'n': b.append('\n'); break;
                    case 't': b.append('\t'); break;
                    case 'r': b.append('\r'); break;
                    case 'b': b.append('\b'); break;
                    case 'f': b.append('\f'); break;
                    case 'u':
                        b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                        i += 4;
                        break;
                    default: b.append(e); // \" \\ \/
                }
            }
        }

        private void skip() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
        }

        static String quote(String v) {
            StringBuilder b = new StringBuilder("\"");
            for (char c : v.toCharArray()) {
                if (c == '"' || c == '\\') {
                    b.append('\\');
                }
                b.append(c);
            }
            return b.append('"').toString();
        }
    }
}
