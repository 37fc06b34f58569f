// English and French strings. `t(key, params)` fills `{name}` placeholders.
// The language comes from localStorage, else the browser; a switch changes it.

/** @typedef {'en' | 'fr'} Lang */

/** @type {Record<Lang, Record<string, string>>} */
const STRINGS = {
  en: {
    'app.tagline': 'Play city-building board games with friends, in the browser.',
    'lang.switch': 'Français',
    'name.title': 'Your name at the table',
    'name.placeholder': 'e.g. Ana',
    'name.save': 'Save',
    'name.change': 'change',
    'name.playing_as': 'Playing as {name}',
    'name.required': 'Please choose a display name first.',
    'home.create': 'Create a table',
    'home.game': 'Game',
    'home.seats': 'Seats',
    'home.variants': 'Variants',
    'home.no_variants': 'This game has no variants.',
    'home.timer': 'Turn timer',
    'home.timer_none': 'No timer',
    'home.timer_s': '{n} s per turn',
    'home.timer_min': '{n} min per turn',
    'home.spectators': 'Spectators allowed',
    'home.public': 'Public (listed on this page for anyone to join)',
    'home.create_button': 'Create table',
    'home.join': 'Join with a code',
    'home.join_placeholder': 'Code or invite link',
    'home.join_button': 'Join',
    'home.public_tables': 'Public tables',
    'home.no_public': 'No public table right now. Create one!',
    'home.seats_taken': '{taken}/{seats} seats',
    'home.host': 'host: {name}',
    'home.open': 'Open',
    'home.bad_code': 'No table has that code.',
    'home.server_down': 'The server cannot be reached. Try again in a moment.',
    'status.lobby': 'Waiting to start',
    'status.playing': 'Playing',
    'status.finished': 'Finished',
    'table.home': 'Home',
    'table.connecting': 'Connecting…',
    'table.reconnecting': 'Connection lost, reconnecting…',
    'table.connected': 'Connected',
    'table.seats': 'Seats',
    'table.seat_n': 'Seat {n}',
    'table.empty_seat': 'Empty seat',
    'table.take_seat': 'Sit here',
    'table.leave_seat': 'Leave seat',
    'table.kick': 'Remove',
    'table.add_bot': 'Add bot',
    'table.bot': 'Bot ({level})',
    'bot.random': 'easy',
    'bot.greedy': 'strong',
    'table.you': 'you',
    'table.host': 'host',
    'table.away': 'away',
    'table.offline': 'offline',
    'table.back_to_lobby': 'Back to the lobby (change seats)',
    'table.invited_by': '{host} invited you to {game}: {n} of {seats} seats taken. Choose your name to join.',
    'table.invited': 'You are invited to {game}: {n} of {seats} seats taken. Choose your name to join.',
    'table.guest_name': 'Spectator',
    'table.gone': 'disconnected',
    'table.gone_now': 'disconnected just now',
    'table.gone_for': 'disconnected for {n} min',
    'table.online': 'online',
    'table.invite': 'Invite players',
    'table.copy_invite': 'Copy invite link',
    'table.copy_spectate': 'Copy spectator link',
    'table.copied': 'Link copied',
    'table.spectators': '{n} watching',
    'table.start': 'Start the game',
    'table.start_hint': 'Fill all {n} seats (players or bots) to start.',
    'table.waiting_host': 'Waiting for the host to start the game.',
    'table.settings': 'Table settings',
    'table.apply_settings': 'Apply settings',
    'table.no_variant': 'none (the base rules)',
    'table.no_spectators': 'No spectators',
    'table.public': 'Public table (listed on the home page)',
    'table.private': 'Private table (only the links open it)',
    'table.spectating': 'You are watching this table.',
    'table.visitor': 'Pick a free seat to play, or just watch.',
    'table.play_again': 'Play again',
    'table.waiting_again': 'Waiting for the host to start a new game.',
    'table.chat': 'Chat',
    'table.chat_placeholder': 'Say something…',
    'table.send': 'Send',
    'table.log': 'Game log',
    'table.no_log': 'Nothing has happened yet.',
    'table.log_from_now': 'What happens from now on will be written here.',
    'table.your_turn': 'Your turn',
    'table.turn_of': "{name}'s turn",
    'table.turns_of': 'Waiting for {names}',
    'table.game_over': 'Game over',
    'table.winner': '{names} wins!',
    'table.winners': '{names} share the win!',
    'table.no_winner': 'Nobody wins.',
    'table.final_scores': 'Final scores',
    'table.replay': 'Replay',
    'table.replay_first': 'First move',
    'cue.when_away': 'When it is your turn and this tab is in the background:',
    'cue.sound_on': 'Sound on',
    'cue.sound_off': 'Sound off',
    'cue.notify_on': 'Notifications on',
    'cue.notify_off': 'Notify me',
    'cue.title': 'Your turn',
    'cue.body': 'The {game} table is waiting for you.',
    'table.replay_play': 'Play the moves',
    'table.replay_prev': 'Previous move',
    'table.replay_next': 'Next move',
    'table.replay_step': 'Step {i} of {n}',
    'table.replay_close': 'Back to the table',
    'table.replay_download': 'Download the record',
    'home.record': 'Watch a game record',
    'home.record_hint': 'A record downloaded from a finished game’s replay.',
    'home.record_bad': 'This file is not a CityTable game record.',
    'fair.sealed': 'Shuffles sealed',
    'fair.sealed_detail':
      'Before this game started, the server drew its seed and showed everyone this fingerprint of it (SHA-256 of the seed and a secret salt). The record of the finished game reveals both, and its replay checks that they are the ones sealed here and that they deal exactly the cards and draws of this game.',
    'fair.title': 'Fair shuffles',
    'fair.commitment_matches': '✓ The revealed seed is the one sealed when the game started (SHA-256 {short}…).',
    'fair.commitment_differs': '✗ The revealed seed is not the one sealed when the game started.',
    'fair.commitment_absent': 'This game started before shuffles were sealed: only its replay can be checked.',
    'fair.seen': '✓ This browser was shown this seal when the game started ({date}).',
    'fair.replay_checking': 'Replaying the seed with the moves…',
    'fair.replay_matches': '✓ Replaying the seed with the {n} moves deals exactly the cards and draws of this record.',
    'fair.replay_bad_setup': '✗ The game of this record cannot be set up again.',
    'fair.replay_refused': '✗ Step {i} of this record cannot be played in the game replayed from its seed.',
    'fair.replay_view_differs': '✗ At step {i}, the game replayed from the seed differs from this record.',
    'fair.replay_outcome_differs': '✗ The game replayed from the seed does not end as this record says.',
    'fair.replay_failed': 'The replay could not be checked: {why}',
    'fair.cli': 'Anyone can check a downloaded record with the command citytable verify RECORD.json.',
    'table.replay_unavailable': 'The replay is not available yet.',
    'table.timer': 'Time left',
    'table.timed_out': 'Time ran out',
    'table.points': '{n} pts',
    'table.points.one': '{n} pt',
    'table.spectator_badge': 'Spectator',
    'table.bad_link': 'This table does not exist, or the link is wrong.',
    'table.game_unknown': 'This game ({game}) cannot be shown by this page yet.',
    'err.bad_message': 'The server did not understand that request.',
    'err.frame_too_large': 'That message is too large (at most {max_bytes} bytes).',
    'err.rate_limited': 'Slow down a little: too many actions at once. Try again in {seconds} s.',
    'err.hello_first': 'The connection was not ready. Reload the page.',
    'err.no_such_table': 'This table does not exist, or the code is wrong.',
    'err.bad_token': 'Your saved seat does not belong to this table.',
    'err.not_host': 'Only the host can do that.',
    'err.seat_taken': 'That seat is already taken.',
    'err.not_seated': 'You need a seat to do that.',
    'err.no_spectators': 'This table does not allow spectators.',
    'err.wrong_status': 'That is not possible at this point of the game.',
    'err.bad_settings': 'These settings are not valid for this game.',
    'err.stale_version': 'The game moved on before your action arrived. Try again.',
    'err.not_your_turn': 'It is not your turn.',
    'err.illegal_move': 'That move is not allowed.',
    'err.bad_move': 'That move does not exist in this game.',
    'err.bad_chat': 'Chat messages must be 1 to {max_chars} characters.',
    'err.try_again': 'The server could not save that. Try again.',
    'err.table_elsewhere': 'This table is on another server right now. Try again in a moment.',
    'err.bad_name': 'Names are 1 to {max_chars} characters, without control characters.',
    'err.bad_legal_moves_of': 'A legal-move request names at most {max_chars} characters.',
    'err.no_such_seat': 'There is no such seat at this table.',
    'err.spectator': 'You are watching with a spectator link: you cannot take a seat.',
    'ttt.name': 'Tic-tac-toe',
    'ttt.hint': 'Three in a row wins.',
    'err.rate_limited.no_retry_after_ms': 'Slow down a little: too many actions at once.',
    'err.unknown': 'The server refused that ({code}).',
    'err.bad_settings.unknown_game': 'This server has no such game.',
    'err.bad_settings.seats': 'This game is played by {min} to {max} players.',
    'err.bad_settings.first_seat': 'The starting seat is not at the table.',
    'err.bad_settings.option_range': 'The option {option} lies between {min} and {max}.',
    'err.bad_settings.not_options': 'These are not options of this game.',
    'err.bad_settings.turn_seconds': 'A turn timer lasts {min} to {max} seconds.',
    'err.bad_settings.seats_occupied': 'Free the seats you want to remove first.',
    'err.bad_settings.empty_seats': 'Every seat needs a player or a bot.',
    'err.bad_settings.option_invalid': 'The option {option} is not valid.',
    'err.bad_settings.option_invalid.too_many': 'The option {option} holds at most {max} entries.',
    'err.bad_settings.option_invalid.title': 'Entry {item} of {option}: a title has 1 to {max} characters.',
    'err.bad_settings.option_invalid.effect': 'Entry {item} of {option}: a room cannot write that effect.',
    'err.bad_settings.option_invalid.reference': 'Entry {item} of {option} names something the game does not have.',
    'err.bad_settings.option_invalid.amount': 'Entry {item} of {option}: a number is out of its bounds (at most {max}).',
    'err.bad_settings.option_invalid.trade_faces': 'Entry {item} of {option}: a trade card needs one face for each face of the die.',
    'err.bad_settings.option_invalid.goals': 'Entry {item} of {option}: an objective has 1 to {max} goals.',
    'err.bad_settings.option_invalid.unfit_city_limit': 'Entry {item} of {option} cannot be met: a city holds at most {max} of what it asks for.',
    'err.bad_settings.option_invalid.unfit_forbidden': 'Entry {item} of {option} cannot be met: it forbids a building it needs.',
    'err.bad_settings.option_invalid.unfit_districts': 'Entry {item} of {option} cannot be met within {max} districts.',
    'err.bad_settings.option_invalid.unfit_moves': 'Entry {item} of {option} cannot be met: its turns give only {max} moves.',
    'err.bad_settings.option_invalid.off_map': 'Block {item} of {option} is not a block of the city.',
    'err.bad_settings.option_invalid.duplicate': 'Block {item} of {option} is listed twice.',
    'err.bad_settings.option_invalid.junction': 'Block {item} of {option} is the motorway junction, which stays free.',
    'err.bad_settings.option_invalid.district_full': 'Block {item} of {option}: a district holds at most {max} protected blocks.',
    'err.bad_settings.option_invalid.closed': 'These protected blocks cut off part of the city from the junction.',
    'err.bad_settings.option_invalid.exclusive': 'Choose either the die’s protected layouts or your own, not both.',
    'err.bad_settings.option_invalid.mode': 'Only Despicable Annihilation tables lay out their own protected areas.',
    'rule.not_your_turn': 'It is not your turn to decide.',
    'rule.game_over': 'The game is over.',
    'rule.stale_timeout': 'That timer already ended.',
    'rule.tic-tac-toe.cell_taken': 'That cell is already marked.',
    'rule.tic-tac-toe.no_such_cell': 'Cells are numbered 0 to 8.',
  },
  fr: {
    'app.tagline': 'Jouez à des jeux de construction de ville entre amis, dans le navigateur.',
    'lang.switch': 'English',
    'name.title': 'Votre nom à la table',
    'name.placeholder': 'ex. Ana',
    'name.save': 'Enregistrer',
    'name.change': 'changer',
    'name.playing_as': 'Vous jouez sous le nom {name}',
    'name.required': "Choisissez d'abord un nom.",
    'home.create': 'Créer une table',
    'home.game': 'Jeu',
    'home.seats': 'Places',
    'home.variants': 'Variantes',
    'home.no_variants': "Ce jeu n'a pas de variante.",
    'home.timer': 'Temps par tour',
    'home.timer_none': 'Sans limite',
    'home.timer_s': '{n} s par tour',
    'home.timer_min': '{n} min par tour',
    'home.spectators': 'Spectateurs autorisés',
    'home.public': 'Publique (listée sur cette page, tout le monde peut rejoindre)',
    'home.create_button': 'Créer la table',
    'home.join': 'Rejoindre avec un code',
    'home.join_placeholder': "Code ou lien d'invitation",
    'home.join_button': 'Rejoindre',
    'home.public_tables': 'Tables publiques',
    'home.no_public': 'Aucune table publique pour le moment. Créez-en une !',
    'home.seats_taken': '{taken}/{seats} places',
    'home.host': 'hôte : {name}',
    'home.open': 'Ouvrir',
    'home.bad_code': "Aucune table n'a ce code.",
    'home.server_down': 'Le serveur est injoignable. Réessayez dans un instant.',
    'status.lobby': 'En attente',
    'status.playing': 'En cours',
    'status.finished': 'Terminée',
    'table.home': 'Accueil',
    'table.connecting': 'Connexion…',
    'table.reconnecting': 'Connexion perdue, reconnexion…',
    'table.connected': 'Connecté',
    'table.seats': 'Places',
    'table.seat_n': 'Place {n}',
    'table.empty_seat': 'Place libre',
    'table.take_seat': "S'asseoir ici",
    'table.leave_seat': 'Quitter la place',
    'table.kick': 'Retirer',
    'table.add_bot': 'Ajouter un robot',
    'table.bot': 'Robot ({level})',
    'bot.random': 'facile',
    'bot.greedy': 'fort',
    'table.you': 'vous',
    'table.host': 'hôte',
    'table.away': 'absent',
    'table.offline': 'hors ligne',
    'table.back_to_lobby': 'Retour au salon (changer les places)',
    'table.invited_by': '{host} vous invite à {game} : {n} places prises sur {seats}. Choisissez votre nom pour rejoindre.',
    'table.invited_by.one': '{host} vous invite à {game} : {n} place prise sur {seats}. Choisissez votre nom pour rejoindre.',
    'table.invited': 'Vous êtes invité à {game} : {n} places prises sur {seats}. Choisissez votre nom pour rejoindre.',
    'table.invited.one': 'Vous êtes invité à {game} : {n} place prise sur {seats}. Choisissez votre nom pour rejoindre.',
    'table.guest_name': 'Spectateur',
    'table.gone': 'déconnecté',
    'table.gone_now': 'déconnecté à l’instant',
    'table.gone_for': 'déconnecté depuis {n} min',
    'table.online': 'en ligne',
    'table.invite': 'Inviter des joueurs',
    'table.copy_invite': "Copier le lien d'invitation",
    'table.copy_spectate': 'Copier le lien spectateur',
    'table.copied': 'Lien copié',
    'table.spectators': '{n} spectateurs',
    'table.spectators.one': '{n} spectateur',
    'table.start': 'Lancer la partie',
    'table.start_hint': 'Occupez les {n} places (joueurs ou robots) pour commencer.',
    'table.waiting_host': "En attente du lancement par l'hôte.",
    'table.settings': 'Réglages de la table',
    'table.apply_settings': 'Appliquer',
    'table.no_variant': 'aucune (règles de base)',
    'table.no_spectators': 'Pas de spectateurs',
    'table.public': "Table publique (listée sur la page d'accueil)",
    'table.private': 'Table privée (seuls les liens y mènent)',
    'table.spectating': 'Vous regardez cette table.',
    'table.visitor': 'Choisissez une place libre pour jouer, ou regardez simplement.',
    'table.play_again': 'Rejouer',
    'table.waiting_again': "En attente d'une nouvelle partie lancée par l'hôte.",
    'table.chat': 'Discussion',
    'table.chat_placeholder': 'Dites quelque chose…',
    'table.send': 'Envoyer',
    'table.log': 'Journal de partie',
    'table.no_log': "Rien ne s'est encore passé.",
    'table.log_from_now': "Ce qui se passera désormais s'écrira ici.",
    'table.your_turn': 'À vous de jouer',
    'table.turn_of': 'Au tour de {name}',
    'table.turns_of': 'On attend {names}',
    'table.game_over': 'Partie terminée',
    'table.winner': '{names} gagne !',
    'table.winners': '{names} gagnent ensemble !',
    'table.no_winner': 'Personne ne gagne.',
    'table.final_scores': 'Scores finaux',
    'table.replay': 'Revoir la partie',
    'table.replay_first': 'Premier coup',
    'cue.when_away': 'Quand c’est à vous et que cet onglet est en arrière-plan :',
    'cue.sound_on': 'Son activé',
    'cue.sound_off': 'Son coupé',
    'cue.notify_on': 'Notifications activées',
    'cue.notify_off': 'Me notifier',
    'cue.title': 'À vous de jouer',
    'cue.body': 'La table de {game} vous attend.',
    'table.replay_play': 'Dérouler les coups',
    'table.replay_prev': 'Coup précédent',
    'table.replay_next': 'Coup suivant',
    'table.replay_step': 'Étape {i} sur {n}',
    'table.replay_close': 'Retour à la table',
    'table.replay_download': 'Télécharger le déroulé',
    'home.record': 'Revoir une partie enregistrée',
    'home.record_hint': 'Un déroulé téléchargé depuis la page « Revoir la partie » d’une partie finie.',
    'home.record_bad': "Ce fichier n'est pas un déroulé de partie CityTable.",
    'fair.sealed': 'Tirages scellés',
    'fair.sealed_detail':
      "Avant le début de la partie, le serveur a tiré sa graine et montré à tous cette empreinte (SHA-256 de la graine et d'un sel secret). Le déroulé de la partie finie révèle les deux, et son visionnage vérifie que ce sont bien ceux scellés ici et qu'ils donnent exactement les cartes et tirages de cette partie.",
    'fair.title': 'Tirages équitables',
    'fair.commitment_matches': '✓ La graine révélée est celle scellée au début de la partie (SHA-256 {short}…).',
    'fair.commitment_differs': "✗ La graine révélée n'est pas celle scellée au début de la partie.",
    'fair.commitment_absent': 'Cette partie a commencé avant que les tirages soient scellés : seul son rejeu peut être vérifié.',
    'fair.seen': '✓ Ce navigateur a vu ce sceau au début de la partie ({date}).',
    'fair.replay_checking': 'Rejeu de la graine avec les coups…',
    'fair.replay_matches': '✓ Rejouer la graine avec les {n} coups donne exactement les cartes et tirages de ce déroulé.',
    'fair.replay_bad_setup': '✗ La partie de ce déroulé ne peut pas être remise en place.',
    'fair.replay_refused': "✗ L'étape {i} de ce déroulé ne peut pas être jouée dans la partie rejouée depuis sa graine.",
    'fair.replay_view_differs': "✗ À l'étape {i}, la partie rejouée depuis la graine diffère de ce déroulé.",
    'fair.replay_outcome_differs': '✗ La partie rejouée depuis la graine ne se termine pas comme le dit ce déroulé.',
    'fair.replay_failed': "Le rejeu n'a pas pu être vérifié : {why}",
    'fair.cli': "Chacun peut vérifier un déroulé téléchargé avec la commande citytable verify DEROULE.json.",
    'table.replay_unavailable': "Le déroulé de la partie n'est pas encore disponible.",
    'table.timer': 'Temps restant',
    'table.timed_out': 'Temps écoulé',
    'table.points': '{n} pts',
    'table.points.one': '{n} pt',
    'table.spectator_badge': 'Spectateur',
    'table.bad_link': "Cette table n'existe pas, ou le lien est erroné.",
    'table.game_unknown': 'Ce jeu ({game}) ne peut pas encore être affiché par cette page.',
    'err.bad_message': "Le serveur n'a pas compris cette demande.",
    'err.frame_too_large': 'Ce message est trop long ({max_bytes} octets au plus).',
    'err.rate_limited': 'Doucement : trop d’actions à la fois. Réessayez dans {seconds} s.',
    'err.hello_first': "La connexion n'était pas prête. Rechargez la page.",
    'err.no_such_table': "Cette table n'existe pas, ou le code est erroné.",
    'err.bad_token': "Votre place enregistrée n'appartient pas à cette table.",
    'err.not_host': "Seul l'hôte peut faire cela.",
    'err.seat_taken': 'Cette place est déjà prise.',
    'err.not_seated': 'Il vous faut une place pour faire cela.',
    'err.no_spectators': "Cette table n'accepte pas de spectateurs.",
    'err.wrong_status': "Ce n'est pas possible à ce moment de la partie.",
    'err.bad_settings': 'Ces réglages ne sont pas valables pour ce jeu.',
    'err.stale_version': 'La partie a avancé avant que votre action arrive. Réessayez.',
    'err.not_your_turn': "Ce n'est pas votre tour.",
    'err.illegal_move': "Ce coup n'est pas permis.",
    'err.bad_move': "Ce coup n'existe pas dans ce jeu.",
    'err.bad_chat': 'Un message fait de 1 à {max_chars} caractères.',
    'err.try_again': "Le serveur n'a pas pu l'enregistrer. Réessayez.",
    'err.table_elsewhere': 'Cette table est sur un autre serveur en ce moment. Réessayez dans un instant.',
    'err.bad_name': 'Un nom fait de 1 à {max_chars} caractères, sans caractère de contrôle.',
    'err.bad_legal_moves_of': 'Une demande de coups légaux nomme {max_chars} caractères au plus.',
    'err.no_such_seat': "Cette place n'existe pas à cette table.",
    'err.spectator': 'Vous regardez avec un lien spectateur : vous ne pouvez pas vous asseoir.',
    'ttt.name': 'Morpion',
    'ttt.hint': 'Trois alignés gagnent.',
    'err.rate_limited.no_retry_after_ms': 'Doucement : trop d’actions à la fois.',
    'err.unknown': 'Le serveur a refusé ({code}).',
    'err.bad_settings.unknown_game': "Ce serveur n'a pas ce jeu.",
    'err.bad_settings.seats': 'Ce jeu se joue de {min} à {max} joueurs.',
    'err.bad_settings.first_seat': "La place de départ n'est pas à la table.",
    'err.bad_settings.option_range': "L'option {option} est comprise entre {min} et {max}.",
    'err.bad_settings.not_options': 'Ce ne sont pas des options de ce jeu.',
    'err.bad_settings.turn_seconds': 'Un minuteur dure de {min} à {max} secondes.',
    'err.bad_settings.seats_occupied': "Libérez d'abord les places à retirer.",
    'err.bad_settings.empty_seats': 'Chaque place doit avoir un joueur ou un robot.',
    'err.bad_settings.option_invalid': "L'option {option} n'est pas valable.",
    'err.bad_settings.option_invalid.too_many': "L'option {option} compte au plus {max} entrées.",
    'err.bad_settings.option_invalid.title': 'Entrée {item} de {option} : un titre fait de 1 à {max} caractères.',
    'err.bad_settings.option_invalid.effect': 'Entrée {item} de {option} : une table ne peut pas écrire cet effet.',
    'err.bad_settings.option_invalid.reference': "L'entrée {item} de {option} nomme quelque chose que le jeu n'a pas.",
    'err.bad_settings.option_invalid.amount': 'Entrée {item} de {option} : un nombre sort de ses bornes (au plus {max}).',
    'err.bad_settings.option_invalid.trade_faces': 'Entrée {item} de {option} : une carte de commerce a une face pour chaque face du dé.',
    'err.bad_settings.option_invalid.goals': 'Entrée {item} de {option} : un objectif a de 1 à {max} buts.',
    'err.bad_settings.option_invalid.unfit_city_limit': "L'entrée {item} de {option} est impossible : une ville compte au plus {max} de ce qu'elle demande.",
    'err.bad_settings.option_invalid.unfit_forbidden': "L'entrée {item} de {option} est impossible : elle interdit un bâtiment dont elle a besoin.",
    'err.bad_settings.option_invalid.unfit_districts': "L'entrée {item} de {option} est impossible en {max} quartiers.",
    'err.bad_settings.option_invalid.unfit_moves': "L'entrée {item} de {option} est impossible : ses tours ne donnent que {max} actions.",
    'err.bad_settings.option_invalid.off_map': "Le bloc {item} de {option} n'est pas un bloc de la ville.",
    'err.bad_settings.option_invalid.duplicate': 'Le bloc {item} de {option} figure deux fois.',
    'err.bad_settings.option_invalid.junction': "Le bloc {item} de {option} est l'échangeur d'autoroute, qui reste libre.",
    'err.bad_settings.option_invalid.district_full': 'Bloc {item} de {option} : un quartier compte au plus {max} blocs protégés.',
    'err.bad_settings.option_invalid.closed': "Ces blocs protégés coupent une partie de la ville de l'échangeur.",
    'err.bad_settings.option_invalid.exclusive': 'Choisissez les zones protégées du dé ou les vôtres, pas les deux.',
    'err.bad_settings.option_invalid.mode': 'Seules les tables en Anéantissement ignoble placent leurs propres zones protégées.',
    'rule.not_your_turn': "Ce n'est pas à vous de décider.",
    'rule.game_over': 'La partie est terminée.',
    'rule.stale_timeout': 'Ce minuteur est déjà terminé.',
    'rule.tic-tac-toe.cell_taken': 'Cette case est déjà prise.',
    'rule.tic-tac-toe.no_such_cell': 'Les cases sont numérotées de 0 à 8.',
  },
};

/** @type {Lang} */
let lang = pickLang();

/** @returns {Lang} */
function pickLang() {
  try {
    const saved = localStorage.getItem('citytable.lang');
    if (saved === 'en' || saved === 'fr') return saved;
  } catch {
    // storage unavailable: fall through to the browser's language
  }
  const nav = typeof navigator !== 'undefined' ? navigator.language || '' : '';
  return nav.toLowerCase().startsWith('fr') ? 'fr' : 'en';
}

/** @returns {Lang} */
export function currentLang() {
  return lang;
}

/** @param {Lang} next */
export function setLang(next) {
  lang = next;
  try {
    localStorage.setItem('citytable.lang', next);
  } catch {
    // not persisted; still switched for this page
  }
  document.documentElement.lang = next;
}

/**
 * Adds strings (game modules register their own).
 * @param {Record<Lang, Record<string, string>>} more
 */
export function addStrings(more) {
  Object.assign(STRINGS.en, more.en);
  Object.assign(STRINGS.fr, more.fr);
}

/** @param {string} key */
export function has(key) {
  return key in STRINGS[lang] || key in STRINGS.en;
}

/**
 * Whether `lang` itself has the key (no fallback to English).
 * @param {Lang} l
 * @param {string} key
 */
export function hasIn(l, key) {
  return key in STRINGS[l];
}

/**
 * @param {string} key
 * @param {Record<string, string | number>} [params]
 * @returns {string}
 */
export function t(key, params) {
  if (params && params.n !== undefined && Math.abs(Number(params.n)) === 1) {
    // Singular forms live under KEY.one.
    const one = `${key}.one`;
    if (one in STRINGS[lang] || one in STRINGS.en) key = one;
  }
  const template = STRINGS[lang][key] ?? STRINGS.en[key] ?? key;
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/**
 * "Label: " as the language writes it: French puts a narrow no-break space
 * before the colon.
 * @param {string} label
 */
export function labelled(label) {
  return lang === 'fr' ? `${label}\u202f: ` : `${label}: `;
}

/**
 * Joins names as "A, B and C" / "A, B et C".
 * @param {string[]} names
 */
export function joinNames(names) {
  if (names.length <= 1) return names.join('');
  const and = lang === 'fr' ? ' et ' : ' and ';
  return names.slice(0, -1).join(', ') + and + names[names.length - 1];
}
