package io.hotsched.plugins.dynamicresources;

import com.google.common.collect.ImmutableCollection;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOptions;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.CelValidationException;
import dev.cel.common.types.CelType;
import dev.cel.common.types.CelTypeProvider;
import dev.cel.common.types.MapType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.StructType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.extensions.CelExtensions;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Device selectors in CEL, as Kubernetes evaluates them (k8s.io/dynamic-resource-allocation/cel):
 * one variable {@code device} with {@code driver}, {@code attributes} and {@code capacity} (maps by
 * domain, then by name), the quantity and semver functions, the standard macros and the strings
 * extension; the expression must be a bool. Kubernetes' limits hold: an expression of at most
 * {@value #MAX_LENGTH} characters, and an evaluation that costs more than {@value #MAX_COST} is
 * stopped ({@code resourceapi.CELSelectorExpressionMaxCost}; the cost here counts one per
 * evaluated step, plus a tenth of the length of each string or list a step yields, as CEL's cost
 * model prices traversals). Compiled expressions are cached: the same ones come back every cycle.
 */
final class CelSelectors {

    static final int MAX_LENGTH = 10 * 1024;
    static final long MAX_COST = 1_000_000;
    private static final int CACHE_SIZE = 256;

    static final OpaqueType QUANTITY = OpaqueType.create("kubernetes.Quantity");
    static final OpaqueType SEMVER = OpaqueType.create("kubernetes.Semver");
    private static final StructType DEVICE = StructType.create(
            "dra.Device",
            ImmutableSet.of("driver", "attributes", "capacity", "allowMultipleAllocations"),
            field -> switch (field) {
                case "driver" -> Optional.of(SimpleType.STRING);
                case "attributes" ->
                    Optional.of(MapType.create(SimpleType.STRING, MapType.create(SimpleType.STRING, SimpleType.DYN)));
                case "capacity" ->
                    Optional.of(MapType.create(SimpleType.STRING, MapType.create(SimpleType.STRING, QUANTITY)));
                case "allowMultipleAllocations" -> Optional.of(SimpleType.BOOL);
                default -> Optional.empty();
            });

    /** A compiled selector, or why it does not compile. */
    record Compiled(CelRuntime.Program program, String error) {}

    /** The CEL evaluation failed: a runtime error or the cost limit. */
    static final class EvalException extends Exception {
        EvalException(String message) {
            super(message);
        }
    }

    private static final class CostExceeded extends RuntimeException {
        CostExceeded() {
            super("operation cancelled: actual cost limit exceeded", null, false, false);
        }
    }

    private final CelCompiler compiler;
    private final CelRuntime runtime;
    private final Map<String, Compiled> cache = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Compiled> eldest) {
            return size() > CACHE_SIZE;
        }
    };

    CelSelectors() {
        CelOptions options =
                CelOptions.current().maxExpressionCodePointSize(MAX_LENGTH).build();
        compiler = CelCompilerFactory.standardCelCompilerBuilder()
                .setOptions(options)
                .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
                .addLibraries(CelExtensions.strings())
                .setTypeProvider(new CelTypeProvider() {
                    @Override
                    public ImmutableCollection<CelType> types() {
                        return ImmutableList.of(DEVICE);
                    }

                    @Override
                    public Optional<CelType> findType(String name) {
                        return DEVICE.name().equals(name) ? Optional.of(DEVICE) : Optional.empty();
                    }
                })
                .addVar("device", DEVICE)
                .addFunctionDeclarations(declarations())
                .setResultType(SimpleType.BOOL)
                .build();
        runtime = CelRuntimeFactory.standardCelRuntimeBuilder()
                .setOptions(options)
                .addLibraries(CelExtensions.strings())
                .addFunctionBindings(bindings())
                .build();
    }

    /** The compiled expression (cached); a compile error is kept as the result's error. */
    Compiled compile(String expression) {
        synchronized (cache) {
            Compiled c = cache.get(expression);
            if (c != null) {
                return c;
            }
        }
        Compiled c = compileNew(expression);
        synchronized (cache) {
            cache.put(expression, c);
        }
        return c;
    }

    private Compiled compileNew(String expression) {
        if (expression.codePointCount(0, expression.length()) > MAX_LENGTH) {
            return new Compiled(
                    null, "expression too long (" + expression.length() + " characters, at most " + MAX_LENGTH + ")");
        }
        try {
            CelAbstractSyntaxTree ast = compiler.compile(expression).getAst();
            return new Compiled(runtime.createProgram(ast), null);
        } catch (CelValidationException e) {
            return new Compiled(null, e.getMessage());
        } catch (CelEvaluationException e) {
            return new Compiled(null, e.getMessage());
        }
    }

    /** Whether the device matches; {@code device} is {@link CelDevice}'s map. */
    static boolean matches(Compiled c, Map<String, Object> device) throws EvalException {
        long[] cost = {0};
        try {
            Object result = c.program().trace(Map.of("device", device), (expr, value) -> {
                cost[0] += 1 + sizeCost(value);
                if (cost[0] > MAX_COST) {
                    throw new CostExceeded();
                }
            });
            return Boolean.TRUE.equals(result);
        } catch (CostExceeded e) {
            throw new EvalException(e.getMessage());
        } catch (CelEvaluationException e) {
            Throwable cause = e.getCause();
            if (cause instanceof CostExceeded) {
                throw new EvalException(cause.getMessage());
            }
            throw new EvalException(asCelGo(e.getMessage()));
        }
    }

    private static final Pattern NO_SUCH_KEY =
            Pattern.compile(".*key '([^']*)' is not present in map.*", Pattern.DOTALL);

    /**
     * A runtime error in cel-go's words where the two libraries say the same thing differently
     * (kube-scheduler shows cel-go's: a missing attribute is {@code no such key: healthy}); other
     * messages are left as dev.cel writes them.
     */
    static String asCelGo(String message) {
        Matcher m = NO_SUCH_KEY.matcher(message == null ? "" : message);
        return m.matches() ? "no such key: " + m.group(1) : message;
    }

    private static long sizeCost(Object value) {
        if (value instanceof String s) {
            return s.length() / 10;
        }
        if (value instanceof Collection<?> l) {
            return l.size() / 10;
        }
        return 0;
    }

    private static List<CelFunctionDecl> declarations() {
        CelType str = SimpleType.STRING;
        CelType bool = SimpleType.BOOL;
        CelType i = SimpleType.INT;
        return List.of(
                CelFunctionDecl.newFunctionDeclaration(
                        "quantity", CelOverloadDecl.newGlobalOverload("string_to_quantity", QUANTITY, str)),
                CelFunctionDecl.newFunctionDeclaration(
                        "isQuantity", CelOverloadDecl.newGlobalOverload("is_quantity_string", bool, str)),
                CelFunctionDecl.newFunctionDeclaration(
                        "semver", CelOverloadDecl.newGlobalOverload("string_to_semver", SEMVER, str)),
                CelFunctionDecl.newFunctionDeclaration(
                        "isSemver", CelOverloadDecl.newGlobalOverload("is_semver_string", bool, str)),
                CelFunctionDecl.newFunctionDeclaration(
                        "compareTo",
                        CelOverloadDecl.newMemberOverload("quantity_compare_to", i, QUANTITY, QUANTITY),
                        CelOverloadDecl.newMemberOverload("semver_compare_to", i, SEMVER, SEMVER)),
                CelFunctionDecl.newFunctionDeclaration(
                        "isGreaterThan",
                        CelOverloadDecl.newMemberOverload("quantity_is_greater_than", bool, QUANTITY, QUANTITY),
                        CelOverloadDecl.newMemberOverload("semver_is_greater_than", bool, SEMVER, SEMVER)),
                CelFunctionDecl.newFunctionDeclaration(
                        "isLessThan",
                        CelOverloadDecl.newMemberOverload("quantity_is_less_than", bool, QUANTITY, QUANTITY),
                        CelOverloadDecl.newMemberOverload("semver_is_less_than", bool, SEMVER, SEMVER)),
                CelFunctionDecl.newFunctionDeclaration(
                        "add", CelOverloadDecl.newMemberOverload("quantity_add", QUANTITY, QUANTITY, QUANTITY)),
                CelFunctionDecl.newFunctionDeclaration(
                        "sub", CelOverloadDecl.newMemberOverload("quantity_sub", QUANTITY, QUANTITY, QUANTITY)),
                CelFunctionDecl.newFunctionDeclaration(
                        "isInteger", CelOverloadDecl.newMemberOverload("quantity_is_integer", bool, QUANTITY)),
                CelFunctionDecl.newFunctionDeclaration(
                        "asInteger", CelOverloadDecl.newMemberOverload("quantity_as_integer", i, QUANTITY)),
                CelFunctionDecl.newFunctionDeclaration(
                        "asApproximateFloat",
                        CelOverloadDecl.newMemberOverload("quantity_as_float", SimpleType.DOUBLE, QUANTITY)),
                CelFunctionDecl.newFunctionDeclaration(
                        "sign", CelOverloadDecl.newMemberOverload("quantity_sign", i, QUANTITY)),
                CelFunctionDecl.newFunctionDeclaration(
                        "major", CelOverloadDecl.newMemberOverload("semver_major", i, SEMVER)),
                CelFunctionDecl.newFunctionDeclaration(
                        "minor", CelOverloadDecl.newMemberOverload("semver_minor", i, SEMVER)),
                CelFunctionDecl.newFunctionDeclaration(
                        "patch", CelOverloadDecl.newMemberOverload("semver_patch", i, SEMVER)));
    }

    private static List<CelFunctionBinding> bindings() {
        Class<CelQuantity> q = CelQuantity.class;
        Class<CelSemver> v = CelSemver.class;
        return List.of(
                CelFunctionBinding.from("string_to_quantity", String.class, CelQuantity::parse),
                CelFunctionBinding.from("is_quantity_string", String.class, CelQuantity::isQuantity),
                CelFunctionBinding.from("string_to_semver", String.class, CelSemver::parse),
                CelFunctionBinding.from("is_semver_string", String.class, CelSemver::isSemver),
                CelFunctionBinding.from("quantity_compare_to", q, q, (a, b) -> (long) Integer.signum(a.compareTo(b))),
                CelFunctionBinding.from("semver_compare_to", v, v, (a, b) -> (long) Integer.signum(a.compareTo(b))),
                CelFunctionBinding.from("quantity_is_greater_than", q, q, (a, b) -> a.compareTo(b) > 0),
                CelFunctionBinding.from("semver_is_greater_than", v, v, (a, b) -> a.compareTo(b) > 0),
                CelFunctionBinding.from("quantity_is_less_than", q, q, (a, b) -> a.compareTo(b) < 0),
                CelFunctionBinding.from("semver_is_less_than", v, v, (a, b) -> a.compareTo(b) < 0),
                CelFunctionBinding.from("quantity_add", q, q, CelQuantity::add),
                CelFunctionBinding.from("quantity_sub", q, q, CelQuantity::sub),
                CelFunctionBinding.from("quantity_is_integer", q, CelQuantity::isInteger),
                CelFunctionBinding.from("quantity_as_integer", q, CelQuantity::asInteger),
                CelFunctionBinding.from("quantity_as_float", q, a -> a.value().doubleValue()),
                CelFunctionBinding.from(
                        "quantity_sign", q, a -> (long) a.value().signum()),
                CelFunctionBinding.from("semver_major", v, CelSemver::major),
                CelFunctionBinding.from("semver_minor", v, CelSemver::minor),
                CelFunctionBinding.from("semver_patch", v, CelSemver::patch));
    }
}
