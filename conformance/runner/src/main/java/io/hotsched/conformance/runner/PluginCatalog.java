package io.hotsched.conformance.runner;

import io.hotsched.api.framework.PluginFactory;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.Manifest;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The plugin factories of the bundles on the class path, found the way Declarative Services finds
 * them in Felix: each jar's {@code Service-Component} descriptors, taking the components that
 * provide {@link PluginFactory} with a {@code hotsched.plugin.name} property. So the runner checks
 * whichever plugin jars it is given ({@code deploy/} in the distribution), not a list compiled in.
 */
public final class PluginCatalog {

    private final Map<String, PluginFactory> factories = new LinkedHashMap<>();
    private final Map<String, String> sources = new LinkedHashMap<>();
    private final List<String> problems = new ArrayList<>();

    private PluginCatalog() {}

    /** Every plugin factory declared by a jar visible to {@code loader}; the first jar declaring a name wins. */
    public static PluginCatalog fromClassPath(ClassLoader loader) throws IOException {
        PluginCatalog c = new PluginCatalog();
        Enumeration<URL> manifests = loader.getResources("META-INF/MANIFEST.MF");
        while (manifests.hasMoreElements()) {
            URL m = manifests.nextElement();
            Manifest mf;
            try (InputStream in = m.openStream()) {
                mf = new Manifest(in);
            }
            String components = mf.getMainAttributes().getValue("Service-Component");
            if (components == null) {
                continue;
            }
            String bundle = mf.getMainAttributes().getValue("Bundle-SymbolicName") + " "
                    + mf.getMainAttributes().getValue("Bundle-Version");
            String base = m.toString().substring(0, m.toString().length() - "META-INF/MANIFEST.MF".length());
            for (String path : components.split(",")) {
                c.read(new URL(base + path.trim()), bundle, loader);
            }
        }
        return c;
    }

    private void read(URL descriptor, String bundle, ClassLoader loader) {
        try (InputStream in = descriptor.openStream()) {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setNamespaceAware(true);
            Document doc = f.newDocumentBuilder().parse(in);
            String pluginName = null;
            NodeList props = doc.getElementsByTagNameNS("*", "property");
            if (props.getLength() == 0) {
                props = doc.getElementsByTagName("property");
            }
            for (int i = 0; i < props.getLength(); i++) {
                Element p = (Element) props.item(i);
                if (PluginFactory.NAME_PROPERTY.equals(p.getAttribute("name"))) {
                    pluginName = p.getAttribute("value");
                }
            }
            NodeList impl = doc.getElementsByTagName("implementation");
            if (pluginName == null || impl.getLength() == 0) {
                return;
            }
            String className = ((Element) impl.item(0)).getAttribute("class");
            if (factories.containsKey(pluginName)) {
                problems.add("plugin " + pluginName + " of " + bundle + " ignored: " + sources.get(pluginName)
                        + " came first on the class path");
                return;
            }
            Object o = Class.forName(className, true, loader)
                    .getDeclaredConstructor()
                    .newInstance();
            if (o instanceof PluginFactory pf) {
                factories.put(pluginName, pf);
                sources.put(pluginName, bundle);
            } else {
                problems.add("plugin " + pluginName + " of " + bundle + ": " + className + " is not a PluginFactory");
            }
        } catch (ReflectiveOperationException | LinkageError e) {
            problems.add("a component of " + bundle + " (" + descriptor + ") cannot be created outside OSGi: " + e);
        } catch (Exception e) {
            problems.add("cannot read " + descriptor + " of " + bundle + ": " + e);
        }
    }

    /** Plugin name to factory. */
    public Map<String, PluginFactory> factories() {
        return Collections.unmodifiableMap(factories);
    }

    /** Plugin name to the bundle (symbolic name and version) that declared it. */
    public Map<String, String> sources() {
        return Collections.unmodifiableMap(sources);
    }

    /** Components that were found but could not be used, with why. */
    public List<String> problems() {
        return Collections.unmodifiableList(problems);
    }
}
