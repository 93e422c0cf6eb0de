package mazzo.client;

import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import java.util.List;
import java.util.Objects;

/** Says where two messages first differ, so a failing vector points at the field, not a dump. */
final class MessageDiff {
  private static final int MAX_SHOWN = 160;

  private MessageDiff() {}

  /** Null when equal as messages; else the path of the first difference with both values. */
  static String firstDifference(Message expected, Message actual) {
    if (expected.equals(actual)) {
      return null;
    }
    String where = walk(expected, actual, "");
    return where != null ? where : "messages differ (unknown fields)";
  }

  private static String walk(Message expected, Message actual, String path) {
    for (FieldDescriptor field : expected.getDescriptorForType().getFields()) {
      String here = path.isEmpty() ? field.getName() : path + "." + field.getName();
      if (field.isRepeated()) {
        List<?> want = (List<?>) expected.getField(field);
        List<?> got = (List<?>) actual.getField(field);
        for (int i = 0; i < Math.min(want.size(), got.size()); i++) {
          String diff = compare(field, want.get(i), got.get(i), here + "[" + i + "]");
          if (diff != null) {
            return diff;
          }
        }
        if (want.size() != got.size()) {
          return here + ": expected " + want.size() + " items, got " + got.size();
        }
        continue;
      }
      boolean wantSet = !field.hasPresence() || expected.hasField(field);
      boolean gotSet = !field.hasPresence() || actual.hasField(field);
      if (wantSet != gotSet) {
        return here + ": expected " + (wantSet ? "set" : "unset") + ", got " + (gotSet ? "set" : "unset");
      }
      if (wantSet) {
        String diff = compare(field, expected.getField(field), actual.getField(field), here);
        if (diff != null) {
          return diff;
        }
      }
    }
    return null;
  }

  private static String compare(FieldDescriptor field, Object want, Object got, String here) {
    if (field.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
      return walk((Message) want, (Message) got, here);
    }
    if (Objects.equals(want, got)) {
      return null;
    }
    return here + ": expected " + shorten(want) + ", got " + shorten(got);
  }

  private static String shorten(Object value) {
    String text = String.valueOf(value);
    return text.length() <= MAX_SHOWN ? text : text.substring(0, MAX_SHOWN) + "...";
  }
}
