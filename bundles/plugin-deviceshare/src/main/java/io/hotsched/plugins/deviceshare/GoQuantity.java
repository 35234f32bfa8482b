package io.hotsched.plugins.deviceshare;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Quantities written the way Kubernetes' Go code prints them (its canonical form), so the
 * device-allocated annotation is byte for byte what Koordinator writes: binary suffixes
 * (Ki, Mi, Gi, ...) for byte amounts that are whole multiples of them, decimal suffixes
 * (m, k, M, ...) with an integer mantissa otherwise.
 */
final class GoQuantity {

    private static final String[] BINARY = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
    private static final BigInteger KI = BigInteger.valueOf(1024);
    private static final BigInteger THOUSAND = BigInteger.valueOf(1000);

    private GoQuantity() {}

    /** {@code bytes}: the amount is a byte count (gpu-memory); Go keeps such values in BinarySI. */
    static String format(BigDecimal value, boolean bytes) {
        BigDecimal v = value.stripTrailingZeros();
        if (v.signum() == 0) {
            return "0";
        }
        boolean whole = v.scale() <= 0;
        // Go prints BinarySI values inside (-1024, 1024) and fractional ones in decimal form
        if (bytes && whole && v.abs().compareTo(BigDecimal.valueOf(1024)) >= 0) {
            BigInteger n = v.toBigIntegerExact();
            int i = 0;
            while (i < BINARY.length - 1 && n.mod(KI).signum() == 0) {
                n = n.divide(KI);
                i++;
            }
            return n + BINARY[i];
        }
        return decimal(v);
    }

    private static String decimal(BigDecimal v) {
        int exponent;
        BigInteger mantissa;
        if (v.scale() > 0) {
            exponent = -3 * ((v.scale() + 2) / 3);
            mantissa = v.movePointRight(-exponent).toBigInteger();
        } else {
            exponent = 0;
            mantissa = v.toBigIntegerExact();
            while (exponent < 18 && mantissa.mod(THOUSAND).signum() == 0) {
                mantissa = mantissa.divide(THOUSAND);
                exponent += 3;
            }
        }
        return mantissa + suffix(exponent);
    }

    private static String suffix(int exponent) {
        return switch (exponent) {
            case -9 -> "n";
            case -6 -> "u";
            case -3 -> "m";
            case 0 -> "";
            case 3 -> "k";
            case 6 -> "M";
            case 9 -> "G";
            case 12 -> "T";
            case 15 -> "P";
            case 18 -> "E";
            default -> "e" + exponent;
        };
    }
}
