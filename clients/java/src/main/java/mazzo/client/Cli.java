package mazzo.client;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/** The few "--name value" flags the three programs take; anything else is a usage error. */
final class Cli {
  private final Map<String, String> values = new HashMap<>();

  private Cli() {}

  /** Parses {@code --name value} and {@code --name=value} for the allowed names only. */
  static Cli parse(String[] args, Set<String> allowed, String usage) {
    Cli cli = new Cli();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (arg.equals("-h") || arg.equals("--help")) {
        System.out.println(usage);
        System.exit(0);
      }
      if (!arg.startsWith("--")) {
        throw usageError(usage, "unexpected argument " + arg);
      }
      String name = arg.substring(2);
      String value;
      int eq = name.indexOf('=');
      if (eq >= 0) {
        value = name.substring(eq + 1);
        name = name.substring(0, eq);
      } else if (i + 1 < args.length) {
        value = args[++i];
      } else {
        throw usageError(usage, "--" + name + " needs a value");
      }
      if (!allowed.contains(name)) {
        throw usageError(usage, "unknown option --" + name);
      }
      cli.values.put(name, value);
    }
    return cli;
  }

  /** {@link #parse}, or on a bad command line: the message on stderr and exit 2. */
  static Cli parseOrExit(String[] args, Set<String> allowed, String usage) {
    try {
      return parse(args, allowed, usage);
    } catch (UsageError e) {
      System.err.println(e.getMessage());
      System.exit(2);
      throw e;
    }
  }

  String get(String name, String fallback) {
    return values.getOrDefault(name, fallback);
  }

  String require(String name, String usage) {
    String value = values.get(name);
    if (value == null) {
      throw usageError(usage, "--" + name + " is required");
    }
    return value;
  }

  int getInt(String name, int fallback, String usage) {
    String value = values.get(name);
    try {
      return value == null ? fallback : Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw usageError(usage, "--" + name + " must be an integer, not " + value);
    }
  }

  /** The seed, if given: a uint64 in decimal. */
  Long getSeed(String usage) {
    String value = values.get("seed");
    try {
      return value == null ? null : Long.parseUnsignedLong(value);
    } catch (NumberFormatException e) {
      throw usageError(usage, "--seed must be an unsigned integer, not " + value);
    }
  }

  private static UsageError usageError(String usage, String message) {
    return new UsageError(message + "\n" + usage);
  }

  /** Thrown for bad command lines; the mains print it and exit 2. */
  static final class UsageError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UsageError(String message) {
      super(message);
    }
  }
}
