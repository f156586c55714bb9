// /sdk/v1.js: the script a game includes with a classic script tag. It defines the GamePlatform global.
import { connect } from './connect.js';

Object.defineProperty(window, 'GamePlatform', { value: connect(), enumerable: true });
