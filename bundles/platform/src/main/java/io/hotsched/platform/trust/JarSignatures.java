package io.hotsched.platform.trust;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.security.CodeSigner;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * The signers that signed every entry of a jar (standard jar signing, as jarsigner writes it).
 * An entry added or changed after signing, or an entry no signer covers, makes the jar refused:
 * a signature must vouch for all the code, not some of it.
 */
final class JarSignatures {

    private JarSignatures() {}

    /** The signers common to every entry; refused when the jar is unsigned or partly signed. */
    static Set<CodeSigner> commonSigners(File jarFile) throws Untrusted {
        Set<CodeSigner> common = null;
        boolean any = false;
        try (JarFile jar = new JarFile(jarFile, true)) {
            byte[] buffer = new byte[8192];
            for (Enumeration<JarEntry> entries = jar.entries(); entries.hasMoreElements(); ) {
                JarEntry e = entries.nextElement();
                if (e.isDirectory() || isSignatureFile(e.getName())) {
                    continue;
                }
                try (InputStream in = jar.getInputStream(e)) {
                    while (in.read(buffer) >= 0) {
                        // the signers of an entry are known once it was read to the end
                    }
                } catch (SecurityException ex) {
                    throw new Untrusted("the signature does not match entry " + e.getName() + ": " + ex.getMessage());
                }
                CodeSigner[] signers = e.getCodeSigners();
                if (signers == null || signers.length == 0) {
                    throw new Untrusted(
                            any || common != null
                                    ? "entry " + e.getName() + " is not signed (added after signing?)"
                                    : "the jar is not signed (entry " + e.getName() + " has no signature)");
                }
                any = true;
                Set<CodeSigner> these = new HashSet<>(List.of(signers));
                if (common == null) {
                    common = these;
                } else {
                    common.retainAll(these);
                }
                if (common.isEmpty()) {
                    throw new Untrusted("no one signer signed every entry (entry " + e.getName() + " differs)");
                }
            }
        } catch (SecurityException e) {
            throw new Untrusted("the jar's signature is invalid: " + e.getMessage());
        } catch (IOException e) {
            throw new Untrusted("cannot read the jar: " + e.getMessage());
        }
        if (common == null) {
            throw new Untrusted("the jar is not signed (it has no entries to sign)");
        }
        return common;
    }

    /** The manifest and the signature block files, which signing itself writes. */
    static boolean isSignatureFile(String name) {
        String n = name.toUpperCase(Locale.ROOT);
        if (!n.startsWith("META-INF/") || n.indexOf('/', "META-INF/".length()) >= 0) {
            return false;
        }
        return n.equals("META-INF/MANIFEST.MF")
                || n.endsWith(".SF")
                || n.endsWith(".RSA")
                || n.endsWith(".DSA")
                || n.endsWith(".EC")
                || n.startsWith("META-INF/SIG-");
    }
}
