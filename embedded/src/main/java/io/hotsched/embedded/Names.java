package io.hotsched.embedded;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The name syntaxes of the Kubernetes API, each returning kube-apiserver's messages for a value
 * that breaks it (none when it is fine): RFC 1123 subdomains (most object names), RFC 1123 labels
 * (namespaces, container names), RFC 1035 labels (services), qualified names (label and annotation
 * keys, taint keys) and label values.
 */
final class Names {

    private static final String LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
    private static final String SUBDOMAIN_FMT = LABEL_FMT + "(\\." + LABEL_FMT + ")*";
    private static final String DNS1035_FMT = "[a-z]([-a-z0-9]*[a-z0-9])?";
    private static final String QUALIFIED_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
    private static final String LABEL_VALUE_FMT = "(" + QUALIFIED_FMT + ")?";

    private static final Pattern LABEL = Pattern.compile(LABEL_FMT);
    private static final Pattern SUBDOMAIN = Pattern.compile(SUBDOMAIN_FMT);
    private static final Pattern DNS1035 = Pattern.compile(DNS1035_FMT);
    private static final Pattern QUALIFIED = Pattern.compile(QUALIFIED_FMT);
    private static final Pattern LABEL_VALUE = Pattern.compile(LABEL_VALUE_FMT);

    private static final Syntax SUBDOMAIN_SYNTAX = new Syntax(
            253,
            SUBDOMAIN,
            "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and"
                    + " must start and end with an alphanumeric character",
            SUBDOMAIN_FMT,
            "example.com");
    private static final Syntax LABEL_SYNTAX = new Syntax(
            63,
            LABEL,
            "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start"
                    + " and end with an alphanumeric character",
            LABEL_FMT,
            "my-name",
            "123-abc");
    private static final Syntax DNS1035_SYNTAX = new Syntax(
            63,
            DNS1035,
            "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic"
                    + " character, and end with an alphanumeric character",
            DNS1035_FMT,
            "my-name",
            "abc-123");
    private static final Syntax LABEL_VALUE_SYNTAX = new Syntax(
            63,
            LABEL_VALUE,
            "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must"
                    + " start and end with an alphanumeric character",
            LABEL_VALUE_FMT,
            "MyValue",
            "my_value",
            "12345");

    private static final String QUALIFIED_MSG =
            "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric"
                    + " character";

    private Names() {}

    /** A name syntax; {@code prefix} for a {@code generateName}, which may end in '-'. */
    interface Rule {
        List<String> check(String name, boolean prefix);
    }

    static final Rule SUBDOMAIN_NAME = (name, prefix) -> subdomain(masked(name, prefix));
    static final Rule LABEL_NAME = (name, prefix) -> label(masked(name, prefix));
    static final Rule DNS1035_NAME = (name, prefix) -> dns1035(masked(name, prefix));
    static final Rule PATH_SEGMENT_NAME = (name, prefix) -> pathSegment(name, prefix);

    private static String masked(String name, boolean prefix) {
        return prefix && name.length() > 1 && name.endsWith("-") ? name.substring(0, name.length() - 1) + "a" : name;
    }

    static List<String> subdomain(String v) {
        return SUBDOMAIN_SYNTAX.check(v);
    }

    static List<String> label(String v) {
        List<String> errs = LABEL_SYNTAX.check(v);
        if (!LABEL.matcher(v).matches() && SUBDOMAIN.matcher(v).matches()) {
            // a valid subdomain that is no label: its dots are what is wrong
            errs.set(errs.size() - 1, "must not contain dots");
        }
        return errs;
    }

    static List<String> dns1035(String v) {
        return DNS1035_SYNTAX.check(v);
    }

    /** Names that only have to be a path segment (RBAC objects: {@code system:controller:x}). */
    static List<String> pathSegment(String v, boolean prefix) {
        List<String> errs = new ArrayList<>(1);
        if (!prefix && (v.equals(".") || v.equals(".."))) {
            errs.add("may not be '" + v + "'");
        }
        for (String bad : new String[] {"/", "%"}) {
            if (v.contains(bad)) {
                errs.add("may not contain '" + bad + "'");
            }
        }
        return errs;
    }

    /** A label key, annotation key or taint key: an optional DNS subdomain prefix and '/', and a name. */
    static List<String> qualifiedName(String v) {
        int slash = v.indexOf('/');
        if (slash < 0
                && !v.isEmpty()
                && v.length() <= 63
                && QUALIFIED.matcher(v).matches()) {
            return List.of();
        }
        List<String> errs = new ArrayList<>(2);
        String name = v;
        if (slash >= 0) {
            if (v.indexOf('/', slash + 1) >= 0) {
                errs.add("a qualified name "
                        + regex(QUALIFIED_MSG, QUALIFIED_FMT, "MyName", "my.name", "123-abc")
                        + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
                return errs;
            }
            String prefix = v.substring(0, slash);
            name = v.substring(slash + 1);
            if (prefix.isEmpty()) {
                errs.add("prefix part must be non-empty");
            } else {
                subdomain(prefix).forEach(m -> errs.add("prefix part " + m));
            }
        }
        if (name.isEmpty()) {
            errs.add("name part must be non-empty");
        } else if (name.length() > 63) {
            errs.add("name part " + maxLength(63));
        }
        if (!QUALIFIED.matcher(name).matches()) {
            errs.add("name part " + regex(QUALIFIED_MSG, QUALIFIED_FMT, "MyName", "my.name", "123-abc"));
        }
        return errs;
    }

    static List<String> labelValue(String v) {
        return LABEL_VALUE_SYNTAX.check(v);
    }

    /** A length limit and a pattern, with kube-apiserver's words for a value that breaks either. */
    private record Syntax(int max, Pattern pattern, String message, String fmt, String... examples) {
        List<String> check(String v) {
            boolean matches = pattern.matcher(v).matches();
            if (v.length() <= max && matches) {
                return List.of();
            }
            List<String> errs = new ArrayList<>(2);
            if (v.length() > max) {
                errs.add(maxLength(max));
            }
            if (!matches) {
                errs.add(regex(message, fmt, examples));
            }
            return errs;
        }
    }

    private static String maxLength(int n) {
        return "must be no more than " + n + " characters";
    }

    /** The regex failure message as kube-apiserver builds it, examples and all. */
    private static String regex(String msg, String fmt, String... examples) {
        StringBuilder b = new StringBuilder(msg).append(" (e.g. ");
        for (int i = 0; i < examples.length; i++) {
            b.append(i > 0 ? " or " : "").append('\'').append(examples[i]).append("', ");
        }
        return b.append("regex used for validation is '")
                .append(fmt)
                .append("')")
                .toString();
    }
}
