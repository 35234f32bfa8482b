package io.hotsched.plugins.dynamicresources;

import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;

/**
 * A Kubernetes quantity as CEL sees it (the {@code kubernetes.Quantity} type of Kubernetes' CEL
 * library): a device's capacity, or {@code quantity("16Gi")} in an expression. Compared by value,
 * so {@code 1Gi} equals {@code 1024Mi}.
 */
record CelQuantity(BigDecimal value) implements Comparable<CelQuantity> {

    static CelQuantity parse(String text) {
        try {
            return new CelQuantity(Quantity.getAmountInBytes(new Quantity(text)));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("quantities must match the regular expression "
                    + "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$', got \"" + text + "\"");
        }
    }

    static boolean isQuantity(String text) {
        try {
            parse(text);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    static CelQuantity of(Quantity q) {
        return new CelQuantity(Quantity.getAmountInBytes(q));
    }

    @Override
    public int compareTo(CelQuantity o) {
        return value.compareTo(o.value);
    }

    CelQuantity add(CelQuantity o) {
        return new CelQuantity(value.add(o.value));
    }

    CelQuantity sub(CelQuantity o) {
        return new CelQuantity(value.subtract(o.value));
    }

    boolean isInteger() {
        return value.signum() == 0 || value.stripTrailingZeros().scale() <= 0;
    }

    long asInteger() {
        if (!isInteger()) {
            throw new IllegalArgumentException("cannot convert value to integer");
        }
        return value.longValueExact();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CelQuantity q && value.compareTo(q.value) == 0;
    }

    @Override
    public int hashCode() {
        return value.stripTrailingZeros().hashCode();
    }
}
