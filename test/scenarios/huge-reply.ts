import { text, type Scenario } from '../../src/scripted-model/scenario.ts';

/** A model that answers with 300,000 characters. */
const hugeReply: Scenario = () => text('y'.repeat(300_000));
export default hugeReply;
