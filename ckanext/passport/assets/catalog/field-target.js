/* A link to one field of the record form (#field-…, from the list of what a record lacks) lands on that field.
 *
 * The browser scrolls to the field while the page is parsed; CKAN's modules (select2 among them) start only once
 * the page's translations have arrived, and change the layout above the field (a multiple select of several lines
 * becomes one), which can leave it out of sight. This module's element follows the form, so it starts after the
 * form's widgets and scrolls to the field (or, for a vocabulary, to the search that took over its id) again.
 */
this.ckan.module('passport-field-target', function () {
  return {
    initialize: function () {
      var id = window.location.hash.slice(1);
      var field = id && document.getElementById(decodeURIComponent(id));
      if (field) {
        field.scrollIntoView({block: 'center'});
      }
    }
  };
});
