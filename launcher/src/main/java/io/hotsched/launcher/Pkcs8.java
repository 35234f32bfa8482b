package io.hotsched.launcher;

import java.io.ByteArrayOutputStream;

/**
 * Wraps a PKCS#1 RSA key (PEM "RSA PRIVATE KEY", what kubeadm and openssl genrsa write) into the
 * PKCS#8 structure the JDK reads: version 0, the rsaEncryption algorithm, the key as an octet string.
 */
final class Pkcs8 {

    /** DER of SEQUENCE { OID 1.2.840.113549.1.1.1, NULL }. */
    private static final byte[] RSA_ALGORITHM = {
        0x30, 0x0d, 0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00
    };

    private Pkcs8() {}

    static byte[] wrapRsa(byte[] pkcs1) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.write(0x02);
        body.write(0x01);
        body.write(0x00);
        body.writeBytes(RSA_ALGORITHM);
        body.writeBytes(tlv(0x04, pkcs1));
        return tlv(0x30, body.toByteArray());
    }

    private static byte[] tlv(int tag, byte[] value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(tag);
        int n = value.length;
        if (n < 0x80) {
            out.write(n);
        } else {
            int bytes = n > 0xffffff ? 4 : n > 0xffff ? 3 : n > 0xff ? 2 : 1;
            out.write(0x80 | bytes);
            for (int i = bytes - 1; i >= 0; i--) {
                out.write((n >>> (8 * i)) & 0xff);
            }
        }
        out.writeBytes(value);
        return out.toByteArray();
    }
}
