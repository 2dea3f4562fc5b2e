/* A link to one field of the record form (#field-…, from the list of what a record lacks) lands on that field.
 *
 * The browser scrolls to the field while the page is parsed; select2 and the form's other widgets then change the
 * layout above it (a multiple select of several lines becomes one), which can leave the field out of sight. Once
 * the page has loaded, the field (or, for a vocabulary, the search that took over its id) is scrolled to again.
 */
window.addEventListener('load', function () {
  var id = window.location.hash.slice(1);
  var field = id && document.getElementById(decodeURIComponent(id));
  if (field) {
    field.scrollIntoView({block: 'center'});
  }
});
