// The npm package @gameplatform/sdk (packages/sdk): the same SDK as /sdk/v1.js, as an ES module export instead of a global.
import { connect } from './connect.js';

/** The SDK, connected to the play shell when the module is first imported. */
const sdk: GamePlatform.SDK = connect();

export { sdk as GamePlatform };
export default sdk;
