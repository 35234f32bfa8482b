package io.hotsched.plugins.defaults.helper;

/**
 * A piecewise-linear function through points (x ascending), flat before the first and after the
 * last point, with integer arithmetic as upstream's broken linear function.
 */
public final class BrokenLinear {

    private final long[] xs;
    private final long[] ys;

    public BrokenLinear(long[] xs, long[] ys) {
        this.xs = xs.clone();
        this.ys = ys.clone();
    }

    public long apply(long p) {
        for (int i = 0; i < xs.length; i++) {
            if (p <= xs[i]) {
                if (i == 0) {
                    return ys[0];
                }
                return ys[i - 1] + (ys[i] - ys[i - 1]) * (p - xs[i - 1]) / (xs[i] - xs[i - 1]);
            }
        }
        return ys[ys.length - 1];
    }
}
