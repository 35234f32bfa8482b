package io.hotsched.transformers.nodereservation;

/** Linux cpuset lists: {@code 0-5}, {@code 2,4,6,8}, {@code 0-1,4}. */
final class CpuSet {

    private CpuSet() {}

    /** How many cpus the list names. */
    static int size(String list) {
        int n = 0;
        for (String part : list.split(",")) {
            String p = part.trim();
            if (p.isEmpty()) {
                continue;
            }
            int dash = p.indexOf('-');
            if (dash < 0) {
                Integer.parseInt(p);
                n++;
            } else {
                int from = Integer.parseInt(p.substring(0, dash).trim());
                int to = Integer.parseInt(p.substring(dash + 1).trim());
                if (to < from) {
                    throw new IllegalArgumentException("cpuset range " + p + " runs backwards");
                }
                n += to - from + 1;
            }
        }
        return n;
    }
}
