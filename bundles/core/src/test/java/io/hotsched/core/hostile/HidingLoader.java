package io.hotsched.core.hostile;

import io.hotsched.api.framework.Plugin;
import io.hotsched.api.framework.PluginFactory;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;

/**
 * Loads the plugin classes of this package itself and refuses {@link Gone}, as a bundle's class
 * loader refuses a class its bundle neither holds nor imports; everything else (the API) comes
 * from the test's loader, as from the API bundle.
 */
final class HidingLoader extends ClassLoader {

    private static final String PACKAGE = HidingLoader.class.getPackageName() + ".";

    HidingLoader() {
        super(HidingLoader.class.getClassLoader());
    }

    /** A factory that makes a {@code pluginClass} loaded here, failing as a bundle's own code would. */
    static PluginFactory factory(Class<? extends Plugin> pluginClass) {
        return (args, handle) -> {
            try {
                return (Plugin) new HidingLoader()
                        .loadClass(pluginClass.getName())
                        .getConstructor()
                        .newInstance();
            } catch (InvocationTargetException e) {
                if (e.getCause() instanceof Error error) {
                    throw error;
                }
                throw new IllegalStateException(e.getCause());
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        };
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        synchronized (getClassLoadingLock(name)) {
            if (name.equals(Gone.class.getName())) {
                throw new ClassNotFoundException(name);
            }
            if (!name.startsWith(PACKAGE)) {
                return super.loadClass(name, resolve);
            }
            Class<?> c = findLoadedClass(name);
            if (c == null) {
                try (InputStream in = getParent().getResourceAsStream(name.replace('.', '/') + ".class")) {
                    byte[] bytes = in.readAllBytes();
                    c = defineClass(name, bytes, 0, bytes.length);
                } catch (IOException | NullPointerException e) {
                    throw new ClassNotFoundException(name, e);
                }
            }
            return c;
        }
    }
}
