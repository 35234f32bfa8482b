package io.hotsched.plugins.defaults.helper;

import java.util.regex.Pattern;

/** Kubernetes' validation of label keys (qualified names) and values, with its messages. */
public final class LabelValidation {

    private static final String NAME_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
    private static final Pattern NAME = Pattern.compile(NAME_FMT);
    private static final Pattern DNS1123_SUBDOMAIN =
            Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    private static final Pattern VALUE = Pattern.compile("(" + NAME_FMT + ")?");

    private LabelValidation() {}

    /** Null when {@code key} is a valid label key, else upstream's message. */
    public static String keyError(String key) {
        String name = key;
        int slash = key.indexOf('/');
        if (slash >= 0) {
            String prefix = key.substring(0, slash);
            name = key.substring(slash + 1);
            if (prefix.isEmpty()) {
                return "prefix part must be non-empty";
            }
            if (prefix.length() > 253 || !DNS1123_SUBDOMAIN.matcher(prefix).matches()) {
                return "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
                        + "and must start and end with an alphanumeric character";
            }
        }
        if (name.isEmpty()) {
            return "name part must be non-empty";
        }
        if (name.length() > 63) {
            return "name part must be no more than 63 characters";
        }
        if (!NAME.matcher(name).matches()) {
            return "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
                    + "character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '"
                    + NAME_FMT + "')";
        }
        return null;
    }

    /** Null when {@code value} is a valid label value, else upstream's message (with its examples and regex). */
    public static String valueError(String value) {
        if (value.length() > 63) {
            return "must be no more than 63 characters";
        }
        if (!VALUE.matcher(value).matches()) {
            return "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and "
                    + "end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for "
                    + "validation is '(" + NAME_FMT + ")?')";
        }
        return null;
    }
}
