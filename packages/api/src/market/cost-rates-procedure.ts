import { authedProcedure } from "../trpc.ts";

/**
 * The COST_* rates the server's perLot uses: the web app prices a user's mini-lot choice
 * (GOLDM, …) in the browser with core's perLot and needs the same rates (the dashboard is
 * signed in, so this is too).
 */
export const costRatesProcedure = authedProcedure.query(({ ctx }) => ctx.services.hub.costRates);
