package io.hotsched.core.support;

import io.hotsched.api.framework.FilterPlugin;
import io.hotsched.api.framework.PermitPlugin;
import io.hotsched.api.framework.PostBindPlugin;
import io.hotsched.api.framework.PostFilterPlugin;
import io.hotsched.api.framework.PreBindPlugin;
import io.hotsched.api.framework.PreFilterExtensions;
import io.hotsched.api.framework.PreFilterPlugin;
import io.hotsched.api.framework.PreScorePlugin;
import io.hotsched.api.framework.ReservePlugin;
import io.hotsched.api.framework.ScoreExtensions;
import io.hotsched.api.framework.ScorePlugin;
import io.hotsched.api.framework.ext.FilterTransformer;
import io.hotsched.api.framework.ext.PostFilterTransformer;
import io.hotsched.api.framework.ext.PreFilterTransformer;
import io.hotsched.api.framework.ext.ScoreTransformer;

/**
 * A plugin of every point of the scheduling and binding cycles, as plugin, transformer and
 * extension, from PreFilter to PostBind but Bind: for tests that watch how the framework calls
 * each of them.
 */
public interface AllPoints
        extends PreFilterPlugin,
                PreFilterExtensions,
                FilterPlugin,
                PostFilterPlugin,
                PreScorePlugin,
                ScorePlugin,
                ScoreExtensions,
                ReservePlugin,
                PermitPlugin,
                PreBindPlugin,
                PostBindPlugin,
                PreFilterTransformer,
                FilterTransformer,
                ScoreTransformer,
                PostFilterTransformer {}
