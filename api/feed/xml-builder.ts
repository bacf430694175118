// One configured XMLBuilder for both renderers: attributes under "@_", CDATA under "__cdata", and
// processEntities on, so every text and attribute value is escaped by the library, never by hand.

import { XMLBuilder } from 'fast-xml-parser';

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

export const xmlBuilder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  textNodeName: '#text',
  cdataPropName: '__cdata',
  processEntities: true,
  suppressEmptyNode: false,
  format: false,
});
