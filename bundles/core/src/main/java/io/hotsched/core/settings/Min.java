package io.hotsched.core.settings;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The least value a numeric settings attribute takes; {@link SettingsCheck} refuses a smaller one.
 * (The metatype annotations' own {@code min} is not kept at run time.)
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Min {
    long value();
}
