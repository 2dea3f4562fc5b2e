/* A vocabulary field that searches as the curator types (EUROVOC, CZ-NACE, territory, EU data themes).
 *
 * The page renders the field as a plain <select> holding only the record's chosen concepts, all selected: without
 * this script the form posts them unchanged. The script puts select2 (CKAN ships 3.5) beside the select, fed by the
 * passport_vocab_search action, and mirrors each choice back into the select's options, so the form posts the very
 * fields it posted before, several concepts in the vocabulary's order (as a select of every concept posted them).
 * select2 3.5 cannot search an API from a <select>, hence its own unnamed hidden input.
 *
 * Options (data-module-*): source (the action's URL with its vocabulary and language), limit, placeholder,
 * searching, no-matches, remove (the texts, already in the reader's language).
 */
this.ckan.module('passport-vocab-select', function ($) {
  return {
    options: {source: null, limit: 20, placeholder: '', searching: '', noMatches: '', remove: ''},

    initialize: function () {
      // Scheming's add-another template, taken out of the page before this runs: each copy added is initialized.
      if (!$.contains(document.documentElement, this.el[0])) {
        return;
      }
      var select = this.el;
      // CKAN 2.12 ships select2 4, which searches an API from the <select> itself; CKAN 2.11 ships 3.5.
      if ($.fn.select2.amd) {
        this._initializeFour(select);
        return;
      }
      var multiple = select.prop('multiple');
      var id = select.attr('id');
      var chosen = select.find('option:selected').filter(function () { return this.value; })
        .map(function () { return {id: this.value, text: $(this).text(), order: $(this).data('order')}; }).get();
      var search = $('<input type="hidden">').insertAfter(select);
      var options = this.options;

      search.select2({
        multiple: multiple,
        allowClear: !multiple,
        placeholder: options.placeholder,
        minimumInputLength: 0,
        width: '100%',
        formatSearching: function () { return options.searching; },
        formatNoMatches: function () { return options.noMatches; },
        ajax: {
          url: options.source,
          dataType: 'json',
          quietMillis: 250,
          data: function (term) { return {q: term, limit: options.limit}; },
          results: function (response) {
            return {results: $.map(response.result, function (concept) {
              return {id: concept.id, text: concept.label, order: concept.order};
            })};
          }
        }
      });
      search.select2('data', multiple ? chosen : (chosen[0] || null));
      search.on('change', function () { this._mirror(select, search.select2('data')); }.bind(this));

      // The field's id and label move to what the curator sees: links to a missing field (#field-…) land on it,
      // and its label focuses the search. select2 labels its own inputs with hidden, empty labels: they take the
      // field's name, and the input the field's label now names keeps that one label (axe
      // form-field-multiple-labels), so a screen reader says the field, not only the concept chosen.
      var typing = search.select2('container').find('input.select2-focusser, .select2-search-field input').first();
      var label = $('label[for="' + id + '"]');
      search.select2('container').add(search.select2('dropdown')).find('label.select2-offscreen')
        .text(this._name(label));
      $('label.select2-offscreen[for="' + typing.attr('id') + '"]').remove();
      label.attr('for', typing.attr('id')).attr('id', id + '-label');
      // The concept chosen describes the field; it no longer names it.
      typing.filter('.select2-focusser').attr('aria-labelledby', id + '-label')
        .attr('aria-describedby', search.select2('container').find('.select2-chosen').attr('id'));
      this._nameRemovers(search.select2('container'));
      search.on('change', function () { this._nameRemovers(search.select2('container')); }.bind(this));
      select.hide().attr('id', id + '-chosen');
      search.select2('container').attr('id', id).addClass('passport-vocab-select');
    },

    /* select2 3.5's "×" of each concept chosen is a link with no text: it says what it does. */
    _nameRemovers: function (container) {
      container.find('.select2-search-choice-close').attr('aria-label', this.options.remove)
        .attr('title', this.options.remove);
    },

    /* The field's name as its label reads, without the required field's asterisk. */
    _name: function (label) {
      return $.trim(label.clone().find('.control-required').remove().end().text());
    },

    /* select2 4 on the select: each concept picked becomes one of its options, put in the vocabulary's order. */
    _initializeFour: function (select) {
      var options = this.options;
      select.select2({
        allowClear: !select.prop('multiple'),
        placeholder: options.placeholder,
        minimumInputLength: 0,
        width: '100%',
        language: {
          searching: function () { return options.searching; },
          noResults: function () { return options.noMatches; }
        },
        ajax: {
          url: options.source,
          dataType: 'json',
          delay: 250,
          data: function (params) { return {q: params.term || '', limit: options.limit}; },
          processResults: function (response) {
            return {results: $.map(response.result, function (concept) {
              return {id: concept.id, text: concept.label, order: concept.order};
            })};
          }
        }
      });
      select.on('select2:select', function (event) {
        select.find('option').filter(function () { return this.value === event.params.data.id; })
          .attr('data-order', event.params.data.order);
        var picked = select.find('option').filter(function () { return this.value; }).detach().sort(function (a, b) {
          return $(a).data('order') - $(b).data('order');
        });
        select.append(picked).trigger('change.select2');
      });
      // As with 3.5 below: the field's id moves to what the curator sees, so links to a missing field land on it.
      // select2 4 names its box by the concept shown and its search by nothing: both take the field's label.
      var id = select.attr('id');
      var label = $('label[for="' + id + '"]').attr('for', id + '-chosen').attr('id', id + '-label');
      select.attr('id', id + '-chosen');
      var container = select.data('select2').$container.attr('id', id).addClass('passport-vocab-select');
      container.find('.select2-selection').attr('aria-labelledby', id + '-label');
      container.find('.select2-search__field').attr('aria-label', this._name(label));
    },

    /* The select's options become the chosen concepts in the vocabulary's order, each selected (a single select
     * keeps its blank choice). */
    _mirror: function (select, data) {
      var chosen = ($.isArray(data) ? data.slice() : (data ? [data] : [])).sort(function (a, b) {
        return a.order - b.order;
      });
      select.find('option').filter(function () { return this.value; }).remove();
      $.each(chosen, function (index, concept) {
        select.append($('<option selected>').val(concept.id).text(concept.text));
      });
      if (!chosen.length) {
        select.val('');
      }
    }
  };
});
