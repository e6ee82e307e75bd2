import { Course } from 'course-router';

Course.get('/', 'HomeController@index').name('home');
Course.get('/hello/{name}', 'HomeController@hello').where('name', '[a-z]+').name('hello');
