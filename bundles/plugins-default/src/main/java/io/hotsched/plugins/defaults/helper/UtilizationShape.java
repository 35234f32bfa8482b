package io.hotsched.plugins.defaults.helper;

import io.hotsched.api.framework.InvalidArgsException;
import java.util.List;

/**
 * A v1 {@code shape} (NodeResourcesFit's RequestedToCapacityRatio, VolumeBinding's storage
 * capacity scoring): utilization points 0..100, strictly rising, with scores 0..10 that become
 * node scores 0..100; validated as upstream's validateFunctionShape does.
 */
public final class UtilizationShape {

    /** Shape scores are 0..10 in the args, scaled to node scores 0..100. */
    public static final long MAX_CUSTOM_PRIORITY_SCORE = 10;

    /** UtilizationShapePoint (v1). */
    public record Point(long utilization, long score) {}

    private UtilizationShape() {}

    /** The shape's function; {@code field} names the shape in errors. */
    public static BrokenLinear parse(List<Point> shape, String field) throws InvalidArgsException {
        if (shape == null || shape.isEmpty()) {
            throw new InvalidArgsException(field, "Required value: at least one point");
        }
        long[] xs = new long[shape.size()];
        long[] ys = new long[shape.size()];
        for (int i = 0; i < shape.size(); i++) {
            Point p = shape.get(i);
            if (p.utilization() < 0 || p.utilization() > 100) {
                throw new InvalidArgsException(
                        field + "[" + i + "].utilization", p.utilization(), "must be in the range [0, 100]");
            }
            if (i > 0 && p.utilization() <= xs[i - 1]) {
                throw new InvalidArgsException(
                        field + "[" + i + "].utilization",
                        p.utilization(),
                        "utilization values must be sorted in increasing order");
            }
            if (p.score() < 0 || p.score() > MAX_CUSTOM_PRIORITY_SCORE) {
                throw new InvalidArgsException(
                        field + "[" + i + "].score",
                        p.score(),
                        "must be in the range [0, " + MAX_CUSTOM_PRIORITY_SCORE + "]");
            }
            xs[i] = p.utilization();
            ys[i] = p.score() * (100 / MAX_CUSTOM_PRIORITY_SCORE);
        }
        return new BrokenLinear(xs, ys);
    }
}
