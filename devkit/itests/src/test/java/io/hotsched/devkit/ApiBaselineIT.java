package io.hotsched.devkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotsched.testkit.Folders;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The API's baseline check is enforced: a copy of the api module and of its baseline (the API's
 * sources as they were, built in the same reactor), with a method signature changed in an exported
 * package, fails {@code mvn verify} with bnd's report, and passes once the package's major version
 * is raised.
 */
class ApiBaselineIT {

    private static final String FACTORY = "src/main/java/io/hotsched/api/framework/PluginFactory.java";
    private static final String PACKAGE_INFO = "src/main/java/io/hotsched/api/framework/package-info.java";

    @TempDir
    Path work;

    @Test
    void aChangedSignatureFailsTheBuildUntilThePackageGetsAMajorBump() throws Exception {
        Path root = Path.of(System.getProperty("hotsched.root"));
        // the parent pom, building only the two modules (profiles' modules too are left out)
        String parent = Files.readString(root.resolve("pom.xml"))
                .replaceFirst(
                        "(?s)<modules>.*?</modules>",
                        "<modules><module>devkit/api-baseline</module><module>bundles/api</module></modules>")
                .replaceAll("<module>(?!bundles/api|devkit/api-baseline)[^<]*</module>", "");
        Files.writeString(work.resolve("pom.xml"), parent);
        for (String module : new String[] {"bundles/api", "devkit/api-baseline"}) {
            for (String part : new String[] {"pom.xml", "src/main"}) {
                Folders.copyTree(
                        root.resolve(module).resolve(part), work.resolve(module).resolve(part));
            }
        }
        Path api = work.resolve("bundles/api");
        edit(api.resolve(FACTORY), "Plugin create(PluginArgs args, Handle handle)", "Plugin create(PluginArgs args)");

        NestedMaven.Result broken = verifyApi();
        assertNotEquals(0, broken.code(), broken.output());
        assertTrue(broken.output().contains("Baseline problems detected"), broken.output());
        assertTrue(
                broken.output()
                        .matches(
                                "(?s).*\\* io\\.hotsched\\.api\\.framework +PACKAGE +MAJOR +1\\.\\S+ +1\\.\\S+ +2\\.0\\.0.*"),
                broken.output());
        assertTrue(
                broken.output()
                        .contains("create(io.hotsched.api.framework.PluginArgs,io.hotsched.api.framework.Handle)"),
                broken.output());

        String version =
                Files.readString(api.resolve(PACKAGE_INFO)).replaceAll("(?s).*@Version\\(\"([^\"]+)\"\\).*", "$1");
        edit(api.resolve(PACKAGE_INFO), "@Version(\"" + version + "\")", "@Version(\"2.0.0\")");
        NestedMaven.Result bumped = verifyApi();
        assertEquals(0, bumped.code(), bumped.output());
    }

    private NestedMaven.Result verifyApi() throws Exception {
        return NestedMaven.run(
                work,
                "-Dmaven.test.skip=true",
                "-Dspotless.check.skip=true",
                "-Dmaven.javadoc.skip=true",
                "-Dmaven.source.skip=true",
                "verify");
    }

    private static void edit(Path file, String from, String to) throws IOException {
        String text = Files.readString(file);
        assertTrue(text.contains(from), file + " no longer contains '" + from + "': update this test");
        Files.writeString(file, text.replace(from, to));
    }
}
